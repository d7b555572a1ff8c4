import DiaryCrypto
import DiaryStore
import Foundation

/// One damaged object, named so the user knows what was lost.
public struct Damage: Sendable, Equatable, CustomStringConvertible {
    public enum Object: Sendable, Hashable {
        case header
        case index
        case entry(UUID)
        case backupFile
        /// A record of a backup file that names no entry (its framing is damaged), by byte offset.
        case backupRecord(offset: Int)
        /// The store's own structure: a finding of `VaultStore.auditLayout`.
        case store
        /// The attachment `name` of entry `entry` (its object is missing or fails a check).
        case attachment(entry: UUID, name: String)
        /// A stored attachment object no entry at hand names (a backup is written without a key).
        case attachmentObject(UUID)
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
        case .backupRecord(let offset): return "backup record at byte \(offset): \(reason)"
        case .store: return "store: \(reason)"
        case .attachment(let entry, let name):
            return "entry \(entry.uuidString.lowercased()): attachment \"\(name)\": \(reason)"
        case .attachmentObject(let id): return "attachment object \(id.uuidString.lowercased()): \(reason)"
        }
    }
}

/// The result of `verify`: how many entries were checked and what is damaged.
public struct VerifyReport: Sendable, Equatable {
    /// Every sealed entry object checked, templates (stored as entry objects) included.
    public var checkedEntries: Int
    /// How many of `checkedEntries` opened as templates.
    public var checkedTemplates: Int
    /// How many of `checkedEntries` opened as capture devices' records.
    public var checkedCaptureDevices = 0
    public var damaged: [Damage]
    /// Attachment objects checked chunk by chunk (each once, however many entries share it).
    public var checkedAttachments: Int
    /// Stored attachment objects no entry references: not damage (nothing can open them; an
    /// attach cut short leaves one), removed by `Vault.removeUnreferencedAttachments`.
    public var unreferencedAttachments: [UUID]
    /// Attachments whose object is not there at all, one per entry and name. In a vault that
    /// syncs they are pending (`diary sync` fetches them), in one that does not they are lost;
    /// in an intact backup the vault did not hold them when it was backed up. Not in `damaged`:
    /// the caller, which knows whether the vault syncs, says which.
    public var absentAttachments: [Damage] = []
    /// The attachments (by entry and name) whose objects were checked: `checkedAttachments`
    /// counts stored objects, of which several attachments may share one.
    public var checkedAttachmentRecords = 0
    public var isClean: Bool { damaged.isEmpty }

    public init(
        checkedEntries: Int, checkedTemplates: Int = 0, damaged: [Damage], checkedAttachments: Int = 0,
        unreferencedAttachments: [UUID] = []
    ) {
        self.checkedEntries = checkedEntries
        self.checkedTemplates = checkedTemplates
        self.damaged = damaged
        self.checkedAttachments = checkedAttachments
        self.unreferencedAttachments = unreferencedAttachments
    }
}

/// Authenticates an index and a set of sealed entries, and cross-checks them.
///
/// The index is read first (`expectations`), then each entry on its own (`verdict`), so that a
/// backup can be checked one record at a time without holding its entries.
package struct Verifier {
    let vaultID: UUID
    let keyRing: KeyRing

    package init(vaultID: UUID, keyRing: KeyRing) {
        self.vaultID = vaultID
        self.keyRing = keyRing
    }

    /// What an authentic index says about the entries: which copy of each it records.
    package struct Expectations {
        /// Nil when the index root is missing or cannot be read: nothing to compare with.
        var rows: [UUID: SealTag]?
        /// The ids (by head, `IndexLayout`) of pages that are damaged: their entries cannot be
        /// compared either.
        var damagedPages: [Range<Int>] = []
        var damage: [Damage] = []
        /// The attachment objects the readable rows reference: an entry that does not open
        /// keeps its objects from being called leftovers.
        var indexedObjects: Set<UUID> = []

        /// Whether the index can vouch for (or against) the entry `id`.
        func covers(_ id: UUID) -> Bool {
            let head = IndexLayout.head(of: id)
            return rows != nil && !damagedPages.contains { $0.contains(head) }
        }
    }

    /// What one sealed entry turned out to be.
    package enum Verdict: Equatable {
        /// Authentic, and the copy the index records (or the index cannot say).
        case intact
        /// Authentic, but its page of an intact index does not list it.
        case notInIndex
        /// Authentic, but not the copy the index records: an older or other copy put back.
        case replayed
        /// Does not open: damaged, or not this entry's.
        case damaged(String)
    }

    package func expectations(sealedIndex: [UInt8]?, indexPages: [Int: [UInt8]]) -> Expectations {
        var result = Expectations()
        guard let sealedIndex else {
            result.damage.append(Damage(object: .index, reason: "missing", reindexRepairs: true))
            return result
        }
        do {
            result.rows = try indexRows(sealedIndex, pages: indexPages, into: &result)
        } catch {
            result.damage.append(Damage(object: .index, reason: "\(error)"))
        }
        return result
    }

    package func verdict(id: UUID, sealed: [UInt8], expectations: Expectations) -> Verdict {
        judge(id: id, sealed: sealed, expectations: expectations).verdict
    }

    /// The verdict, and whether the object opened as a template (so a report can count
    /// entries and templates apart).
    package func judge(id: UUID, sealed: [UInt8], expectations: Expectations) -> Judgement {
        let entry: Entry
        do {
            entry = try EntryCodec.decode(
                Envelope.open(sealed, kind: .entry, objectID: id, vaultID: vaultID, keyRing: keyRing),
                id: id, textLimit: Vault.maximumTextBytes)
        } catch {
            return Judgement(verdict: .damaged("\(error)"), isTemplate: false, objects: [])
        }
        let (isTemplate, objects) = (entry.template != nil, Set(entry.attachments.map(\.objectID)))
        let isDevice = entry.captureDevice != nil
        guard expectations.covers(id), let rows = expectations.rows else {
            return Judgement(verdict: .intact, isTemplate: isTemplate, isCaptureDevice: isDevice, objects: objects)
        }
        guard let recorded = rows[id] else {
            return Judgement(verdict: .notInIndex, isTemplate: isTemplate, isCaptureDevice: isDevice, objects: objects)
        }
        return Judgement(
            verdict: recorded.matches(sealed) ? .intact : .replayed, isTemplate: isTemplate,
            isCaptureDevice: isDevice, objects: objects)
    }

    /// What `judge` found: the verdict, whether the entry opened as a template (so a report
    /// can count entries and templates apart), and the attachment objects it references (ids
    /// only: the keys are read again, one entry at a time, when the objects are checked).
    package struct Judgement {
        package let verdict: Verdict
        package let isTemplate: Bool
        /// True when the object opened as a capture device's record.
        package var isCaptureDevice = false
        package let objects: Set<UUID>

        init(verdict: Verdict, isTemplate: Bool, isCaptureDevice: Bool = false, objects: Set<UUID>) {
            (self.verdict, self.isTemplate, self.isCaptureDevice, self.objects) =
                (verdict, isTemplate, isCaptureDevice, objects)
        }
    }

    /// The damage a verdict stands for, if any.
    static func damage(_ verdict: Verdict, id: UUID) -> Damage? {
        switch verdict {
        case .intact: return nil
        case .notInIndex: return Damage(object: .entry(id), reason: "not in the index", reindexRepairs: true)
        case .replayed: return Damage(object: .entry(id), reason: "differs from the index (replaced or replayed?)")
        case .damaged(let reason): return Damage(object: .entry(id), reason: reason)
        }
    }

    /// Entries the index records that `present` lacks.
    package static func missing(_ expectations: Expectations, present: Set<UUID>) -> [Damage] {
        (expectations.rows?.keys).map(Array.init)?.filter { !present.contains($0) }.map {
            Damage(object: .entry($0), reason: "missing")
        } ?? []
    }

    /// Every row the index records, by the seal tag of the copy it records.
    /// Throws when the root is unreadable; a damaged page is added to `damage` and
    /// `damagedPages`, and its rows are left out.
    private func indexRows(
        _ sealedRoot: [UInt8], pages: [Int: [UInt8]], into result: inout Expectations
    ) throws -> [UUID: SealTag] {
        let plaintext = try Envelope.open(
            sealedRoot, kind: .index, objectID: Envelope.indexObjectID, vaultID: vaultID, keyRing: keyRing)
        // Only each row's seal tag is kept: at 100,000 entries the summaries would be most of
        // what verify holds.
        var rows: [UUID: SealTag] = [:]
        let (root, unreadable) = try resolvedRoot(IndexRoot.decode(plaintext), pages: pages, into: &result)
        for (number, record) in root.pages {
            do {
                guard let sealed = pages[number] else { throw FormatError.invalidField("missing") }
                guard SealTag(record.tag).matches(sealed) else {
                    throw FormatError.invalidField("not the copy the root names (an older page put back?)")
                }
                let page = try IndexPage.decode(
                    Envelope.open(
                        sealed, kind: .indexPage, objectID: IndexLayout.objectID(ofPage: number), vaultID: vaultID,
                        keyRing: keyRing),
                    number: number, version: root.version, expectedCount: record.rows)
                guard page.newestKey() == record.newest else { throw FormatError.invalidField("newest row") }
                for i in 0..<page.count {
                    rows[page.id(ofRowAt: i)] = page.sealTag(ofRowAt: i)
                    guard page.hasAttachments(rowAt: i) else { continue }
                    result.indexedObjects.formUnion(page.summary(at: i).attachments.map(\.objectID))
                }
            } catch {
                result.damagedPages.append(IndexLayout.heads(ofPage: number, version: root.version))
                result.damage.append(Damage(object: .index, reason: "page \(number): \(error)"))
            }
        }
        let named = Set(
            root.pages.map(\.number) + (root.directories ?? []).map { IndexDirectory.storeBase + $0.number })
        // The pages of a directory that could not be read are its, not strays (already reported).
        let unnamed = pages.keys.filter { number in
            !named.contains(number)
                && !(IndexLayout.isPageNumber(number)
                    && unreadable.contains {
                        $0.contains(IndexLayout.heads(ofPage: number, version: root.version).lowerBound)
                    })
        }
        if let stray = unnamed.sorted().first {
            result.damage.append(Damage(object: .index, reason: "page \(stray): not part of the index"))
        }
        return rows
    }

    /// `root` with the pages its directories name (version 5), and the heads of those that
    /// could not be read: a directory that is missing, not the copy the root names or damaged
    /// is reported, and the ids it covers are left uncompared, as a damaged page's are.
    private func resolvedRoot(
        _ root: IndexRoot, pages: [Int: [UInt8]], into result: inout Expectations
    ) -> (IndexRoot, unreadable: [Range<Int>]) {
        guard let directories = root.directories else { return (root, []) }
        var unreadable: [Range<Int>] = []
        let opener = DirectoryOpener(vaultID: vaultID, keyRing: keyRing)
        var resolved = root
        for (number, record) in directories {
            do {
                let sealed = pages[IndexDirectory.storeBase + number]
                resolved.pages += try opener.pages(of: number, record: record, sealed: sealed)
            } catch {
                unreadable.append(IndexDirectory.heads(of: number))
                result.damagedPages.append(IndexDirectory.heads(of: number))
                result.damage.append(Damage(object: .index, reason: "directory \(number): \(error)"))
            }
        }
        return (resolved, unreadable)
    }
}

extension Vault {
    /// Authenticates the header, the index and every entry, and lists each damaged object;
    /// with a witness attached, also every entry this machine saw that is gone or older
    /// (`entrySet`, when the caller already compared the vault with it: no second comparison).
    public func verify(
        entrySet: EntrySetReport? = nil, progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> VerifyReport {
        var report = try verifyObjects(progress: progress)
        // What the store holds besides the sealed objects (a trigger, an unknown file).
        for finding in try storeCall({ try backend.auditLayout() }) {
            report.damaged.append(Damage(object: .store, reason: finding))
        }
        report.damaged += try entrySetDamage(entrySet ?? checkEntrySet())
        return report
    }

    private func verifyObjects(progress: ((_ done: Int, _ total: Int) -> Void)?) throws -> VerifyReport {
        try storeCall {
            try backend.withSnapshot { reader in
                let verifier = Verifier(vaultID: header.vaultID, keyRing: keyRing)
                let expected = verifier.expectations(
                    sealedIndex: try reader.readIndex(), indexPages: try reader.readIndexPages())
                var scan = VerifyScan(
                    verifier: verifier, expected: expected, reader: reader,
                    total: progress == nil ? 0 : try reader.entryIDs().count, progress: progress)
                try reader.forEachEntry { try scan.take($0, $1) }
                try scan.flush()
                let damage = expected.damage + scan.damage + Verifier.missing(expected, present: scan.present)
                var objects = try Self.verifyAttachments(
                    in: reader, references: scan.references, vaultID: header.vaultID, keyRing: keyRing)
                // An entry that does not open may reference any object: its row (when the
                // index has one) says which; without one, no object is called a leftover.
                let rowless = scan.damage.contains {
                    guard case .entry(let id) = $0.object else { return false }
                    return expected.rows?[id] == nil
                }
                objects.unreferenced.removeAll { rowless || expected.indexedObjects.contains($0) }
                var report = VerifyReport(
                    checkedEntries: scan.checked, checkedTemplates: scan.templates,
                    damaged: damage.sorted { $0.description < $1.description } + scan.lookupDamage + objects.damage,
                    checkedAttachments: objects.checked, unreferencedAttachments: objects.unreferenced)
                report.damaged += Self.scanCopyDamage(reader, expected, rowless: scan.rowlessTags)
                report.absentAttachments = objects.absent
                report.checkedAttachmentRecords = objects.attachments
                report.checkedCaptureDevices = scan.captureDevices
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
    func entrySetDamage(_ report: EntrySetReport) throws -> [Damage] {
        let seen = report.seenOn.map { " (seen \(Self.isoDay($0)))" } ?? ""
        var damage: [Damage] = []
        if report.olderKey {
            damage.append(
                Damage(
                    object: .header,
                    reason: "an older key than the one this machine saw\(seen) (a copy from before a rekey)"))
        }
        if report.isLoss, let older = report.olderIndex {
            damage.append(
                Damage(
                    object: .index,
                    reason: "older than the copy this machine saw\(seen): generation \(older.found) < \(older.seen)"))
        }
        for entry in report.missing {
            damage.append(Damage(object: .entry(entry.id), reason: "missing: this machine saw it\(seen)"))
        }
        for entry in report.older {
            damage.append(
                Damage(object: .entry(entry.id), reason: "an older copy than the one this machine saw\(seen)"))
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
