import DiaryStore
import Foundation

/// One pass of `verify` over the entries of a snapshot, a batch at a time: each batch is
/// authenticated on every core, then each id the batch found intact is looked up again, and
/// only the ids seen are kept, so verify holds one batch of sealed entries, whatever the size
/// of the vault.
struct VerifyScan {
    let verifier: Verifier
    let expected: Verifier.Expectations
    let reader: any StoreReader
    /// How many entries the scan will see, for `progress`.
    let total: Int
    let progress: ((_ done: Int, _ total: Int) -> Void)?
    /// What the verdicts found, in scan order.
    private(set) var damage: [Damage] = []
    /// Entries whose lookup by id does not give the bytes the scan found, in scan order.
    private(set) var lookupDamage: [Damage] = []
    private(set) var present = Set<UUID>()
    /// The seal tag of each entry file the index has no row for (few: damage or a file put
    /// back), so the scan copy's record of such an id is compared with the file, not assumed.
    private(set) var rowlessTags: [UUID: SealTag] = [:]
    /// Entries seen (a damaged store may show one id twice).
    private(set) var checked = 0
    /// Of those, the ones that opened as templates.
    private(set) var templates = 0
    /// Of those, the ones that opened as capture devices' records.
    private(set) var captureDevices = 0
    /// The attachment objects each entry that opened references, by object.
    private(set) var references: [UUID: [UUID]] = [:]
    private var pending: [(UUID, [UInt8])] = []

    init(
        verifier: Verifier, expected: Verifier.Expectations, reader: any StoreReader, total: Int,
        progress: ((_ done: Int, _ total: Int) -> Void)?
    ) {
        (self.verifier, self.expected, self.reader) = (verifier, expected, reader)
        (self.total, self.progress) = (total, progress)
        pending.reserveCapacity(ParallelBatch.size)
    }

    mutating func take(_ id: UUID, _ sealed: [UInt8]) throws {
        pending.append((id, sealed))
        if pending.count == ParallelBatch.size { try flush() }
    }

    /// Judges what is pending.
    mutating func flush() throws {
        let (verifier, expected) = (verifier, expected)
        let judged = ParallelBatch.map(pending) { verifier.judge(id: $0.0, sealed: $0.1, expectations: expected) }
        var intact: [(UUID, [UInt8])] = []
        for ((id, sealed), judgement) in zip(pending, judged) {
            present.insert(id)
            if expected.rows != nil, expected.rows?[id] == nil, sealed.count >= IndexRoot.tagLength {
                rowlessTags[id] = SealTag(Array(sealed.suffix(IndexRoot.tagLength)))
            }
            checked += 1
            if judgement.isTemplate { templates += 1 }
            if judgement.isCaptureDevice { captureDevices += 1 }
            for object in judgement.objects { references[object, default: []].append(id) }
            if let found = Verifier.damage(judgement.verdict, id: id) {
                damage.append(found)
            } else {
                intact.append((id, sealed))
            }
            progress?(checked, total)
        }
        // A scan and a lookup take different paths through a store's own index (SQLite's
        // B-tree); a damaged one can make `show` read something other than what the scan
        // saw. Each id must look up to the very bytes the scan found.
        let looked = (try? reader.readEntries(intact.map(\.0))) ?? intact.map { try? reader.readEntry($0.0) }
        for ((id, sealed), found) in zip(intact, looked) where found != sealed {
            lookupDamage.append(Damage(object: .entry(id), reason: "the store's lookup does not find it"))
        }
        pending.removeAll(keepingCapacity: true)
    }
}
