import DiaryCrypto
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

    public init(object: Object, reason: String) {
        self.object = object
        self.reason = reason
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
        sealedIndex: [UInt8]?, entries: [(UUID, [UInt8])], progress: ((Int, Int) -> Void)? = nil
    ) -> VerifyReport {
        var damage: [Damage] = []
        var index: IndexSnapshot?
        if let sealedIndex {
            do {
                index = try IndexCodec.decode(Envelope.open(
                    sealedIndex, kind: .index, objectID: Envelope.indexObjectID, vaultID: vaultID, keyRing: keyRing))
            } catch {
                damage.append(Damage(object: .index, reason: "\(error)"))
            }
        } else {
            damage.append(Damage(object: .index, reason: "missing (run `diary reindex`)"))
        }
        var present = Set<UUID>()
        for (n, (id, sealed)) in entries.enumerated() {
            present.insert(id)
            do {
                _ = try EntryCodec.decode(
                    Envelope.open(sealed, kind: .entry, objectID: id, vaultID: vaultID, keyRing: keyRing),
                    id: id, textLimit: Vault.maximumTextBytes)
                if let index {
                    if let row = index.rows[id] {
                        if row.sealedHash != BLAKE2b.hash(sealed) {
                            damage.append(Damage(object: .entry(id), reason: "differs from the index (replaced or replayed?)"))
                        }
                    } else {
                        damage.append(Damage(object: .entry(id), reason: "not in the index (run `diary reindex`)"))
                    }
                }
            } catch {
                damage.append(Damage(object: .entry(id), reason: "\(error)"))
            }
            progress?(n + 1, entries.count)
        }
        for id in (index?.rows.keys).map(Array.init) ?? [] where !present.contains(id) {
            damage.append(Damage(object: .entry(id), reason: "missing"))
        }
        return VerifyReport(checkedEntries: entries.count, damaged: damage.sorted { $0.description < $1.description })
    }
}

extension Vault {
    /// Authenticates the header, the index and every entry, and lists each damaged object.
    public func verify(progress: ((_ done: Int, _ total: Int) -> Void)? = nil) throws -> VerifyReport {
        try storeCall {
            try backend.withSnapshot { reader in
                var entries: [(UUID, [UInt8])] = []
                try reader.forEachEntry { entries.append(($0, $1)) }
                var report = Verifier(vaultID: header.vaultID, keyRing: keyRing).check(
                    sealedIndex: try reader.readIndex(), entries: entries, progress: progress)
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
