import Foundation

/// What `diary search` looks for, read from its arguments: terms that must all occur in an
/// entry, in any order (jrnl's and a web search's reading of `heron frost`).
///
/// Each argument is a word; an argument with a space in it (`"quoted phrase"` on the shell)
/// is one phrase, since the shell's quotes already said so; and double quotes inside an
/// argument (`'"frozen lake" heron'`) mark phrases, with the words outside them terms of
/// their own. Every term is matched as a substring, ignoring case and diacritics.
public struct SearchQuery: Equatable, Sendable {
    public let terms: [String]

    /// Throws `InputError.unpairedQuote` or `.emptySearch`.
    public init(arguments: [String]) throws {
        var terms: [String] = []
        for argument in arguments {
            if argument.contains("\"") {
                terms += try Self.quoted(argument)
            } else if argument.contains(where: \.isWhitespace) {
                terms.append(argument.trimmingCharacters(in: .whitespacesAndNewlines))
            } else {
                terms.append(argument)
            }
        }
        // A repeated term adds nothing to match, but each would be searched again.
        var seen = Set<String>()
        self.terms = terms.filter { !$0.isEmpty && seen.insert($0.lowercased()).inserted }
        if self.terms.isEmpty { throw InputError.emptySearch }
    }

    /// `"frozen lake" heron` -> ["frozen lake", "heron"].
    private static func quoted(_ argument: String) throws -> [String] {
        var terms: [String] = []
        let parts = argument.split(separator: "\"", omittingEmptySubsequences: false)
        // Split at each quote, the parts alternate outside, inside, outside...: an even count
        // of parts means an odd count of quotes.
        guard parts.count % 2 == 1 else { throw InputError.unpairedQuote(argument: argument) }
        for (i, part) in parts.enumerated() {
            if i % 2 == 1 {
                terms.append(part.trimmingCharacters(in: .whitespacesAndNewlines))
            } else {
                terms += part.split(whereSeparator: \.isWhitespace).map(String.init)
            }
        }
        return terms
    }
}
