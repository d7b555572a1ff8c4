import DiaryCrypto
import DiaryStore
import Foundation

/// One damaged object, named so the user knows what was lost.
public struct Damage: Sendable, Equatable, CustomStringConvertible {
    public enum Object: Sendable, Equatable {
        case header
        case index
        case entry(UUID)
        case backupFile
    }

    public let object: Object
    public let reason: String
    /// True when rebuilding the index from the entries (`Vault.reindex`) repairs it: the
    /// entries are intact and only the index is missing or out of step with them.
    public let reindexRepairs: Bool

    public init(object: Object, reason: String, reindexRepairs: Bool = false) {
        self.object = object
        self.reason = reason
        self.reindexRepairs = reindexRepairs
    }

    public var description: String {
        switch object {
        case .header: return "header: \(reason)"
        case .index: return "index: \(reason)"
        case .entry(let id): return "entry \(id.uuidString.lowercased()): \(reason)"
        case .backupFile: return "backup file: \(reason)"
        }
    }
}

/// The result of `verify`: how many entries were checked and what is damaged.
public struct VerifyReport: Sendable, Equatable {
    public var checkedEntries: Int
    public var damaged: [Damage]
    public var isClean: Bool { damaged.isEmpty }

    public init(checkedEntries: Int, damaged: [Damage]) {
        self.checkedEntries = checkedEntries
        self.damaged = damaged
    }
}

/// Authenticates an index and a set of sealed entries, and cross-checks them.
struct Verifier {
    let vaultID: UUID
    let keyRing: KeyRing

    func check(
        sealedIndex: [UInt8]?, indexPages: [Int: [UInt8]] = [:], entries: [(UUID, [UInt8])],
        progress: ((Int, Int) -> Void)? = nil
    ) -> VerifyReport {
        var damage: [Damage] = []
        var expected: [UUID: (recorded: ([UInt8]) -> Bool, summary: EntrySummary)]?
        var damagedPages = Set<Int>()
        if let sealedIndex {
            do {
                expected = try indexRows(sealedIndex, pages: indexPages, damage: &damage, damagedPages: &damagedPages)
            } catch {
                damage.append(Damage(object: .index, reason: "\(error)"))
            }
        } else {
            damage.append(Damage(object: .index, reason: "missing", reindexRepairs: true))
        }
        var present = Set<UUID>()
        for (n, (id, sealed)) in entries.enumerated() {
            present.insert(id)
            do {
                _ = try EntryCodec.decode(
                    Envelope.open(sealed, kind: .entry, objectID: id, vaultID: vaultID, keyRing: keyRing),
                    id: id, textLimit: Vault.maximumTextBytes)
                if let expected {
                    if let row = expected[id] {
                        if !row.recorded(sealed) {
                            damage.append(Damage(object: .entry(id), reason: "differs from the index (replaced or replayed?)"))
                        }
                    } else if !damagedPages.contains(IndexLayout.page(of: id)) {
                        // (An entry whose page is damaged is covered by that page's report.)
                        damage.append(Damage(object: .entry(id), reason: "not in the index", reindexRepairs: true))
                    }
                }
            } catch {
                damage.append(Damage(object: .entry(id), reason: "\(error)"))
            }
            progress?(n + 1, entries.count)
        }
        for id in (expected?.keys).map(Array.init) ?? [] where !present.contains(id) {
            damage.append(Damage(object: .entry(id), reason: "missing"))
        }
        return VerifyReport(checkedEntries: entries.count, damaged: damage.sorted { $0.description < $1.description })
    }

    /// Every row the index records, with a check that a sealed entry is the recorded copy.
    /// Throws when the root is unreadable; a damaged page is added to `damage` and
    /// `damagedPages`, and its rows are left out.
    private func indexRows(
        _ sealedRoot: [UInt8], pages: [Int: [UInt8]], damage: inout [Damage], damagedPages: inout Set<Int>
    ) throws -> [UUID: (recorded: ([UInt8]) -> Bool, summary: EntrySummary)] {
        let plaintext = try Envelope.open(
            sealedRoot, kind: .index, objectID: Envelope.indexObjectID, vaultID: vaultID, keyRing: keyRing)
        var rows: [UUID: (recorded: ([UInt8]) -> Bool, summary: EntrySummary)] = [:]
        let root = try IndexRoot.decode(plaintext)
        for number in 0..<IndexLayout.pageCount {
            do {
                guard let sealed = pages[number] else { throw FormatError.invalidField("missing") }
                guard SealTag(root.tags[number]).matches(sealed) else {
                    throw FormatError.invalidField("not the copy the root names (an older page put back?)")
                }
                let page = try IndexPage.decode(
                    Envelope.open(
                        sealed, kind: .indexPage, objectID: IndexLayout.objectID(ofPage: number), vaultID: vaultID,
                        keyRing: keyRing),
                    number: number, expectedCount: root.counts[number])
                guard page.newestKey() == root.newest[number] else { throw FormatError.invalidField("newest row") }
                for i in 0..<page.count {
                    let row = page.row(at: i)
                    rows[row.summary.id] = (row.matches, row.summary)
                }
            } catch {
                damagedPages.insert(number)
                damage.append(Damage(object: .index, reason: "page \(number): \(error)"))
            }
        }
        if let stray = pages.keys.first(where: { !(0..<IndexLayout.pageCount).contains($0) }) {
            damage.append(Damage(object: .index, reason: "page \(stray): not part of the index"))
        }
        return rows
    }
}

extension Vault {
    /// Authenticates the header, the index and every entry, and lists each damaged object;
    /// with a witness attached, also every entry this machine saw that is gone or older.
    public func verify(progress: ((_ done: Int, _ total: Int) -> Void)? = nil) throws -> VerifyReport {
        var report = try verifyObjects(progress: progress)
        report.damaged += try entrySetDamage()
        return report
    }

    private func verifyObjects(progress: ((_ done: Int, _ total: Int) -> Void)?) throws -> VerifyReport {
        try storeCall {
            try backend.withSnapshot { reader in
                var entries: [(UUID, [UInt8])] = []
                try reader.forEachEntry { entries.append(($0, $1)) }
                var report = Verifier(vaultID: header.vaultID, keyRing: keyRing).check(
                    sealedIndex: try reader.readIndex(), indexPages: try reader.readIndexPages(), entries: entries,
                    progress: progress)
                // A scan and a lookup take different paths through a store's own index (SQLite's
                // B-tree); a damaged one can make `show` read something other than what the scan
                // saw. Each id must look up to the very bytes the scan found.
                for (id, sealed) in entries where !report.damaged.contains(where: { $0.object == .entry(id) }) {
                    let looked = try? reader.readEntry(id)
                    if looked != sealed {
                        report.damaged.append(Damage(object: .entry(id), reason: "the store's lookup does not find it"))
                    }
                }
                do {
                    _ = try VaultHeader.decode(reader.readHeader())
                } catch {
                    report.damaged.insert(Damage(object: .header, reason: "\(error)"), at: 0)
                }
                return report
            }
        }
    }
}

extension Vault {
    /// The loss `checkEntrySet` finds, as damage: it is damage until the user accepts it.
    func entrySetDamage() throws -> [Damage] {
        let report = try checkEntrySet()
        let seen = report.seenOn.map { " (seen \(Self.isoDay($0)))" } ?? ""
        var damage: [Damage] = []
        if report.olderKey {
            damage.append(Damage(object: .header, reason: "an older key than the one this machine saw\(seen) (a copy from before a rekey)"))
        }
        if report.isLoss, let older = report.olderIndex {
            damage.append(Damage(
                object: .index, reason: "older than the copy this machine saw\(seen): generation \(older.found) < \(older.seen)"))
        }
        for entry in report.missing {
            damage.append(Damage(object: .entry(entry.id), reason: "missing: this machine saw it\(seen)"))
        }
        for entry in report.older {
            damage.append(Damage(object: .entry(entry.id), reason: "an older copy than the one this machine saw\(seen)"))
        }
        return damage
    }

    private static func isoDay(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        formatter.timeZone = .current  // the day as the command line's messages give it
        return formatter.string(from: date)
    }
}
