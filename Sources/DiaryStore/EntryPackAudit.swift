import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `verify` says of the scan copy (`EntryPack`): nothing when it is absent or every
/// record is its entry file's current content. A copy that is refused, or a record that
/// differs from its file or names an entry with no file, is reported: only a diary that knows
/// no copy (an older one) changes entries without removing it, and then the copy may hold an
/// entry's earlier sealed bytes, which the vault no longer shows. Removing it is always safe.
enum EntryPackAudit {
    /// Ids named in a finding at most; the rest are counted.
    static let namedAtMost = 3

    static func findings(in directory: URL) throws -> [String] {
        let pack: EntryPack
        switch EntryPack.open(in: directory) {
        case .absent: return []
        case .refused(let reason): return ["\(EntryPack.fileName) \(reason) (remove it; a search writes it again)"]
        case .opened(let opened): pack = opened
        }
        let entries = directory.appendingPathComponent(FileStore.entriesName)
        let dirFD = open(entries.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dirFD >= 0 else { return ["\(EntryPack.fileName) is there but \(FileStore.entriesName)/ cannot be read"] }
        defer { close(dirFD) }
        var differing: [UUID] = []
        var malformed: [Int] = []
        for (i, segment) in pack.segments.enumerated() {
            guard let bytes = EntryPack.readAt(pack.fd, segment.offset, segment.length) else {
                malformed.append(i)
                continue
            }
            var failure: (any Error)?
            let wellFormed = bytes.withUnsafeBytes { raw in
                EntryPack.records(in: raw, of: segment) { id, sealed in
                    guard failure == nil else { return }
                    let name = FileStore.fileName(for: id)
                    do {
                        let file = try FileReader.readEntryFile(name, in: dirFD) { entries.appendingPathComponent(name).path }
                        if file.map({ !$0.elementsEqual(sealed) }) ?? true { differing.append(id) }
                    } catch {
                        failure = error
                    }
                }
            }
            if let failure { throw failure }
            if !wellFormed { malformed.append(i) }
        }
        return wording(differing: differing, malformed: malformed)
    }

    private static func wording(differing: [UUID], malformed: [Int]) -> [String] {
        var findings: [String] = []
        if !malformed.isEmpty {
            findings.append("\(EntryPack.fileName) has \(malformed.count) malformed segment(s) (remove it; a search writes it again)")
        }
        if !differing.isEmpty {
            let named = differing.prefix(namedAtMost).map { FileStore.fileName(for: $0) }.joined(separator: ", ")
            let more = differing.count > namedAtMost ? " and \(differing.count - namedAtMost) more" : ""
            findings.append(
                "\(EntryPack.fileName) holds sealed bytes that are not their entry's file: \(named)\(more)"
                    + " (an earlier copy, left by a diary that did not know it; remove it, a search writes it again)")
        }
        return findings
    }
}
