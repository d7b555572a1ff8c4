import DiaryApp
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

/// `diary new --template`'s policy: the prompt list, placeholders, and a prompt choice that
/// avoids the three used last (with a seeded generator, so every run is replayable).
final class TemplateExpanderTests: XCTestCase {
    private let utc = LocaleCalendar(localeIdentifier: "en_US_POSIX", timeZone: TimeZone(identifier: "UTC")!)
    /// Friday 2024-03-01 14:30 UTC.
    private let date = Date(timeIntervalSince1970: 1_709_303_400)

    private func template(_ text: String, recent: [String] = []) -> Template {
        Template(id: UUID(), name: "t", text: text, recentPrompts: recent, created: date, modified: date)
    }

    func testThePromptListIsCutOffAndTrimmed() {
        let parsed = TemplateText(parsing: "Title\nbody\n  ---prompts---  \n  One \n\nTwo\nOne\n")
        XCTAssertEqual(parsed.body, "Title\nbody")
        XCTAssertEqual(parsed.prompts, ["One", "Two"])
        XCTAssertEqual(TemplateText(parsing: "no list").body, "no list")
        XCTAssertEqual(TemplateText(parsing: "no list").prompts, [])
        XCTAssertNotNil(TemplateText(parsing: "x\n---prompts---\n" + String(repeating: "p", count: 1025)).invalidPrompt)
    }

    /// A refusal names the line of the first prompt that cannot be remembered, counted in the
    /// whole text (blank lines and the body included); none without a list or a bad prompt.
    func testTheFirstBadPromptIsFoundByItsLine() {
        let long = String(repeating: "p", count: 1025)
        XCTAssertEqual(TemplateText(parsing: "a\nb\n---prompts---\nok\n\n  \(long)\nbell\u{7}").invalidPromptLine, 6)
        XCTAssertEqual(TemplateText(parsing: "---prompts---\nbell\u{7}\n\(long)").invalidPromptLine, 2)
        XCTAssertNil(TemplateText(parsing: "a\n---prompts---\nok\n\nfine").invalidPromptLine)
        XCTAssertNil(TemplateText(parsing: "\(long)\nno list").invalidPromptLine)
    }

    func testPlaceholdersAreFilledInTheLocaleAndOthersStay() {
        var generator = SeededGenerator(seed: 1)
        let expanded = TemplateExpander.expand(
            template("{weekday} {date} {time}\n{unknown} {{date} {date\n{prompt}"), date: date, in: utc,
            using: &generator)
        // The time as `list` prints it (ICU puts a narrow no-break space before PM).
        let time = utc.formatter(template: LocaleCalendar.timeTemplate).string(from: date)
        XCTAssertTrue(time.hasPrefix("2:30"), time)
        XCTAssertEqual(expanded.text, "Friday Mar 1, 2024 \(time)\n{unknown} {date} {date\n{prompt}")
        XCTAssertNil(expanded.prompt, "no prompt list: {prompt} stays")

        let korean = LocaleCalendar(localeIdentifier: "ko_KR", timeZone: TimeZone(identifier: "Asia/Seoul")!)
        let local = TemplateExpander.expand(template("{weekday} {date}"), date: date, in: korean, using: &generator)
        XCTAssertEqual(local.text, "금요일 2024년 3월 1일")
    }

    func testAPromptFillsEveryPlaceAndIsRemembered() {
        var generator = SeededGenerator(seed: 7)
        let expanded = TemplateExpander.expand(
            template("{prompt} / {prompt}\n---prompts---\nOnly {date}", recent: ["Old"]), date: date, in: utc,
            using: &generator)
        XCTAssertEqual(expanded.prompt, "Only {date}")
        XCTAssertEqual(expanded.text, "Only {date} / Only {date}", "a prompt's braces are not expanded")
        XCTAssertEqual(expanded.recentPrompts, ["Only {date}", "Old"])
    }

    /// Over many seeded runs with five prompts, a choice is never one of the three used last.
    func testAChoiceNeverRepeatsTheThreeUsedLast() {
        var generator = SeededGenerator(seed: SeededGenerator.announcedSeed("template prompts"))
        let prompts = ["A", "B", "C", "D", "E"]
        var recent: [String] = []
        var seen = Set<String>()
        for _ in 0..<200 {
            guard let chosen = TemplateExpander.choosePrompt(prompts, avoiding: recent, using: &generator) else {
                return XCTFail("no choice")
            }
            XCTAssertFalse(recent.prefix(3).contains(chosen), "\(chosen) after \(recent)")
            seen.insert(chosen)
            recent = TemplateExpander.remember(chosen, in: recent)
            XCTAssertLessThanOrEqual(recent.count, 3)
        }
        XCTAssertEqual(seen, Set(prompts), "every prompt comes up")
    }

    /// With fewer prompts than remembered ones, the oldest are allowed again first.
    func testAShortListAllowsTheOldestAgain() {
        var generator = SeededGenerator(seed: 3)
        XCTAssertEqual(TemplateExpander.choosePrompt(["A", "B"], avoiding: ["B", "A"], using: &generator), "A")
        XCTAssertEqual(TemplateExpander.choosePrompt(["A"], avoiding: ["A"], using: &generator), "A")
        XCTAssertEqual(
            TemplateExpander.choosePrompt(["A", "B", "C"], avoiding: ["C", "B", "A"], using: &generator), "A")
        XCTAssertNil(TemplateExpander.choosePrompt([], avoiding: [], using: &generator))
    }
}
