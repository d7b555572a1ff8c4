import DiaryApp
import Foundation

/// `new`'s words as jrnl takes them: `diary new Saw a heron by the canal` is one text, the
/// words joined by single spaces, and `diary new "yesterday 9pm: Saw a heron"` is dated by
/// the phrase before its colon when no `--date` is given (`DatedText`).
struct NewTextArguments: Equatable {
    /// The text, or nil when no words were given (then stdin or the editor).
    let text: String?
    /// `--date`, else the date the text opened with, else nil (now).
    let date: DateInput?

    init(words: [String], date: DateInput?, now: Date = Date(), context: LocaleCalendar = DateOutput.context) {
        guard !words.isEmpty else {
            (text, self.date) = (nil, date)
            return
        }
        let joined = words.joined(separator: " ")
        if date == nil, let dated = DatedText.split(joined, now: now, in: context) {
            (text, self.date) = (dated.text, dated.date)
        } else {
            (text, self.date) = (joined, date)
        }
    }
}
