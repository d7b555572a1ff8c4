import Foundation

/// What a mistyped date phrase was probably meant to be: `yesterdy` → `yesterday`,
/// `last fridy 9pm` → `last friday 9pm`.
///
/// Each word diary does not know is replaced by the nearest word it does (`SpokenDate`'s
/// words and the locale's month names), when that is near enough to be a typo (`EditDistance`);
/// the result is a suggestion only if `DateInput` then accepts it.
public enum DateSuggestion {
    public static func suggestion(for text: String, now: Date, in context: LocaleCalendar) -> String? {
        let vocabulary = SpokenDate.vocabulary(in: context)
        let words = text.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty else { return nil }
        var changed = false
        let corrected = words.map { word -> String in
            // Words with digits are numbers and times (`22nd`, `9pm`), whose typos are no words.
            guard word.allSatisfy(\.isLetter), !vocabulary.contains(word) else { return word }
            guard let nearest = EditDistance.nearest(word, among: vocabulary), nearest.count == 1 else { return word }
            changed = true
            return nearest[0]
        }
        guard changed else { return nil }
        let phrase = corrected.joined(separator: " ")
        return DateInput.parse(phrase, now: now, in: context) == nil ? nil : phrase
    }
}

/// Edit distance for suggestions (`did you mean …?`): optimal string alignment, where a swap
/// of two neighbours counts one edit, so `lsit` is one edit from `list`.
public enum EditDistance {
    /// The words closest to `word`, if close enough to be a typo: one edit for a word of up to
    /// three letters, two for longer ones; nil when none is. Ignores case; sorted.
    public static func nearest(_ word: String, among words: some Sequence<String>) -> [String]? {
        let typed = Array(word.lowercased())
        let limit = typed.count <= 3 ? 1 : 2
        var best: [String] = []
        var bestDistance = limit + 1
        for candidate in words {
            let d = between(typed, Array(candidate.lowercased()))
            if d < bestDistance {
                (best, bestDistance) = ([candidate], d)
            } else if d == bestDistance {
                best.append(candidate)
            }
        }
        return best.isEmpty ? nil : best.sorted()
    }

    /// Insertions, deletions, substitutions and swaps of two adjacent characters, each one edit.
    public static func between(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
