import Foundation

/// A snapshot reader that can show `verify` the records of a scan copy of its entries (the
/// files store's `entries.pack`, `EntryPack`). The store checks the copy's form; whether each
/// record is its entry's current sealed copy is the vault's to judge, by the index's tags,
/// without opening every entry file a second time.
public protocol ScanCopyReading {
    /// Calls `body` with each record of every well-formed segment of the copy, in id order,
    /// and returns what is wrong with the copy's form: refused whole, or segments that cannot
    /// be read or do not parse (empty when there is no copy, or its form is sound).
    func forEachScanCopyRecord(_ body: (UUID, UnsafeRawBufferPointer) -> Void) -> [String]
}

extension FileReader: ScanCopyReading {
    public func forEachScanCopyRecord(_ body: (UUID, UnsafeRawBufferPointer) -> Void) -> [String] {
        let pack: EntryPack
        switch EntryPack.open(in: directory) {
        case .absent: return []
        case .refused(let reason): return ["\(EntryPack.fileName) \(reason) (remove it; a search writes it again)"]
        case .opened(let opened): pack = opened
        }
        // Not past the first segment that is malformed: a crafted copy (a sparse file of
        // terabytes) must not keep `verify` reading holes. An emptied segment is read only
        // where it holds data (`holdsOnlyZeros`), for the same reason.
        for (i, segment) in pack.segments.enumerated() {
            if segment.count == 0 {
                guard pack.holdsOnlyZeros(segment).zeros else {
                    return [
                        "\(EntryPack.fileName): segment \(i) is emptied but not zeros"
                            + " (remove it; the next search then writes a new copy)"
                    ]
                }
                continue
            }
            let wellFormed =
                EntryPack.readAt(pack.fd, segment.offset, segment.length)?.withUnsafeBytes { raw in
                    pack.records(in: raw, of: segment, body)
                } ?? false
            guard wellFormed else {
                return ["\(EntryPack.fileName): segment \(i) is malformed (remove it; a search writes it again)"]
            }
        }
        return []
    }
}
