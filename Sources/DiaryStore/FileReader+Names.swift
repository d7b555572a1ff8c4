import Foundation

extension FileReader {
    /// The id an entry file name stands for, accepting exactly the names
    /// `FileStore.entryID(fromFileName:)` accepts (a lowercase 8-4-4-4-12 hex UUID), decoded
    /// byte by byte.
    static func canonicalEntryID(_ name: String) -> UUID? {
        UUID(hyphenatedHex: name, lowercaseOnly: true)
    }
}
