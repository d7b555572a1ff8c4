import Foundation

extension FileReader {
    /// The id an entry file name stands for (a lowercase 8-4-4-4-12 hex UUID), decoded byte
    /// by byte: `FileStore.entryID(fromFileName:)`.
    static func canonicalEntryID(_ name: String) -> UUID? {
        FileStore.entryID(fromFileName: name)
    }
}
