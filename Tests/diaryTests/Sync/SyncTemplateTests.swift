import Foundation
import XCTest

/// Templates travel with the vault: added on one machine, they reach the other; a text changed
/// on both is a conflict resolved by its id; prompt memories changed on both merge by themselves.
final class SyncTemplateTests: XCTestCase {
    private static let evening = "{prompt}\n---prompts---\nA\nB\nC\nD\nE\n"

    /// An editor that records the prompt it was given in `seen`, then writes under it.
    private func editor(_ machine: DiarySandbox, seen: String) throws -> [String: String] {
        [
            "EDITOR": try machine.script(
                "head -1 \"$1\" > '\(seen)'\necho written >> \"$1\"", name: "ed-\(UUID().uuidString.prefix(6)).sh")
        ]
    }

    private func prompt(_ machine: DiarySandbox) throws -> String {
        let seen = machine.root.appendingPathComponent("seen.txt").path
        try machine.ok(["new", "--template", "evening"], env: try editor(machine, seen: seen))
        return try String(contentsOfFile: seen, encoding: .utf8).trimmingCharacters(in: .newlines)
    }

    func testATemplateSyncsAndItsPromptMemoriesMerge() throws {
        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["Shared entry"])
        try a.ok(["template", "add", "evening"], stdin: Data(Self.evening.utf8))
        try net.sync(0)
        let b = try net.join()
        XCTAssertEqual(try b.ok(["template", "list"]).stdout, "evening\n")
        XCTAssertEqual(try b.ok(["template", "show", "evening"]).stdout, Self.evening, "byte for byte")
        XCTAssertEqual(try b.listJSON().count, 1, "the template is no entry on the other machine either")

        // Both machines write from the template before syncing: each changes its memory.
        let fromA = try prompt(a)
        let fromB = try prompt(b)
        for n in [0, 1, 0, 1] { try net.sync(n) }
        for n in 0...1 {
            let conflicts = try net.conflicts(n)
            XCTAssertTrue(conflicts.isEmpty, "machine \(n): \(conflicts)")
            XCTAssertEqual(try net[n].listJSON().count, 3)
        }
        XCTAssertEqual(try net.snapshot(0), try net.snapshot(1))
        // The merged memory holds both prompts: the next choice avoids them both.
        let next = try prompt(a)
        XCTAssertFalse([fromA, fromB].contains(next), "\(next) after \(fromA) and \(fromB)")
    }

    func testATemplateChangedOnBothMachinesIsAConflictResolvedByItsID() throws {
        let net = try SyncMachines(.folder)
        let a = try net.first(entries: ["Shared entry"])
        try a.ok(["template", "add", "evening"], stdin: Data(Self.evening.utf8))
        try net.sync(0)
        let b = try net.join()
        for (machine, line) in [(a, "from A"), (b, "from B")] {
            let ed = try machine.script("echo '\(line)' >> \"$1\"", name: "t-\(UUID().uuidString.prefix(6)).sh")
            try machine.ok(["template", "edit", "evening"], env: ["EDITOR": ed])
        }
        for n in [0, 1, 0] { try net.sync(n) }
        let conflicts = try net.conflicts(1)
        XCTAssertEqual(conflicts.count, 1)
        let id = try XCTUnwrap(conflicts.first?["id"] as? String)
        try b.ok(["resolve", String(id.prefix(8)), "--keep", "mine"])
        for n in [1, 0] { try net.sync(n) }
        for n in 0...1 {
            XCTAssertTrue(try net.conflicts(n).isEmpty)
            let text = try net[n].ok(["template", "show", "evening"]).stdout
            XCTAssertTrue(text.contains("from B") && !text.contains("from A"), "machine \(n): \(text)")
        }
    }
}
