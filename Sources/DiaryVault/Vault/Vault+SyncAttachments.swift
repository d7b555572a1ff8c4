import DiaryCrypto
import DiaryStore
import Foundation

/// What DiarySync needs of a vault's attachment objects (docs/FORMAT.md §12.1): the objects
/// entries reference that the store lacks, the stored bytes of one to publish, and a way to
/// store one fetched from a remote that keeps it only when it is the object its record names.
extension Vault {
    /// The records of the objects that index rows reference and the store does not hold whole
    /// (not fetched yet by sync, lost, or cut short: a fetch killed between the SQLite store's
    /// batches leaves the rows it committed): one per object, from the first entry that opens
    /// and holds it, in object id order. Reads every index page.
    package func attachmentsMissingFromStore() throws -> [AttachmentRecord] {
        try storeCall {
            var wanted = try referencedAttachments()
            guard !wanted.isEmpty else { return [] }
            for stored in try backend.attachmentIDs() {
                if let length = wanted[stored]?.length, try holdsWhole(stored, length: length) { wanted[stored] = nil }
            }
            return try records(of: wanted)
        }
    }

    /// The records of the objects that index rows reference, the store holds whole, and
    /// `keep` (given an object id and its plaintext length) keeps; as above. An entry is opened
    /// only for an object kept.
    package func heldAttachments(where keep: (UUID, UInt64) -> Bool) throws -> [AttachmentRecord] {
        try storeCall {
            var wanted = try referencedAttachments().filter { keep($0.key, $0.value.length) }
            for (object, (_, length)) in wanted where try !holdsWhole(object, length: length) { wanted[object] = nil }
            return try records(of: wanted)
        }
    }

    /// Each object index rows reference, with the first entry that references it and its length.
    private func referencedAttachments() throws -> [UUID: (entry: UUID, length: UInt64)] {
        try sealedIndex.ensureAllPages()
        var wanted: [UUID: (entry: UUID, length: UInt64)] = [:]
        for row in sealedIndex.index.allRows() {
            for summary in row.summary.attachments where wanted[summary.objectID] == nil {
                wanted[summary.objectID] = (row.summary.id, summary.length)
            }
        }
        return wanted
    }

    private func records(of wanted: [UUID: (entry: UUID, length: UInt64)]) throws -> [AttachmentRecord] {
        var records: [AttachmentRecord] = []
        for (object, (entry, _)) in wanted.sorted(by: { $0.key.sortKey < $1.key.sortKey }) {
            guard let sealed = try backend.readEntry(entry), let opened = try? openEntry(sealed, id: entry),
                let record = opened.attachments.first(where: { $0.objectID == object })
            else { continue }
            records.append(record)
        }
        return records
    }

    /// Whether the store holds object `id` at the stored length a plaintext of `length` bytes
    /// implies. Rows that do not make up one object count as not held: a fetch replaces them.
    private func holdsWhole(_ id: UUID, length: UInt64) throws -> Bool {
        guard let expected = AttachmentObject.storedLength(for: length) else { return false }
        do {
            return try backend.attachmentLength(id).map { UInt64($0) == expected } ?? false
        } catch StoreError.corrupt {
            return false
        }
    }

    /// Whether the store holds the object of `record` whole (at the stored length its length
    /// implies): false for an object a killed fetch left cut short, which a fetch replaces.
    package func holdsWholeAttachment(_ record: AttachmentRecord) throws -> Bool {
        try storeCall { try holdsWhole(record.objectID, length: record.length) }
    }

    /// The stored length of object `id`, or nil when the store does not hold it.
    package func storedAttachmentLength(_ id: UUID) throws -> Int? {
        try storeCall { try backend.attachmentLength(id) }
    }

    /// Streams the stored bytes of object `id`, exactly as stored, to `body` in pieces of at
    /// most about 1 MiB; false when the store does not hold it.
    package func readStoredAttachment(_ id: UUID, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        try storeCall { try backend.withSnapshot { try $0.readAttachment(id, body) } }
    }

    /// Stores the object of `record` from stored bytes fetched elsewhere (a sync remote):
    /// `feed` hands them, in order, in pieces of any size, to the closure it is given. They
    /// are kept, as the store keeps an object (the prefix, then each stored chunk), only when
    /// they are exactly `StoredLen(L)` bytes hashing to the record's stored hash; otherwise
    /// nothing stays and `AttachmentError.damaged` is thrown. Returns false, reading nothing,
    /// when the store already holds the object whole; one held cut short is replaced (the
    /// store's `putAttachment` drops its old rows, or renames over its file). Under the write
    /// lock, which first removes what a killed writer left (`removeLeftovers`).
    package func storeFetchedAttachment(
        _ record: AttachmentRecord, _ feed: (_ take: (UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws -> Bool {
        guard let expected = AttachmentObject.storedLength(for: record.length) else {
            throw AttachmentError.damaged(objectID: record.objectID, reason: .invalidRecord)
        }
        return try storeCall {
            try backend.withWriteLock {
                guard try !holdsWhole(record.objectID, length: record.length) else { return false }
                try backend.removeLeftovers()
                try backend.putAttachment(record.objectID) { chunk in
                    let pieces = StoredPieces(length: record.length, expected: expected, objectID: record.objectID)
                    try withoutActuallyEscaping(chunk) { emit in try feed { try pieces.take($0, emit: emit) } }
                    try pieces.finish(storedHash: record.storedHash)
                }
                return true
            }
        }
    }
}

/// Cuts an object's stored bytes, arriving in pieces of any size, into the units a store keeps
/// (the 26-byte prefix, then each stored chunk), hashing them and counting them against the
/// length the record implies.
private final class StoredPieces {
    private let objectID: UUID
    private let expected: UInt64
    private var units: [Int] = []
    private var next = 0
    private var received: UInt64 = 0
    private var pending: [UInt8] = []
    private let hasher = BLAKE2b.Hasher()

    init(length: UInt64, expected: UInt64, objectID: UUID) {
        self.objectID = objectID
        self.expected = expected
        let padded = AttachmentObject.paddedLength(for: length)!
        let chunkLength = UInt64(AttachmentObject.chunkLength)
        let full = Int(padded / chunkLength)
        units = [AttachmentObject.prefixLength] + Array(repeating: AttachmentObject.storedChunkLength, count: full)
        if padded % chunkLength != 0 { units.append(Int(padded % chunkLength) + AttachmentObject.chunkOverhead) }
        pending.reserveCapacity(AttachmentObject.storedChunkLength)
    }

    func take(_ bytes: UnsafeRawBufferPointer, emit: ([UInt8]) throws -> Void) throws {
        guard UInt64(bytes.count) <= expected - received else {
            throw damage(.wrongLength(expected: expected, actual: received + UInt64(bytes.count)))
        }
        received += UInt64(bytes.count)
        hasher.update(bytes)
        var at = 0
        while at < bytes.count {
            let want = units[next] - pending.count
            let n = min(want, bytes.count - at)
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[at..<(at + n)]))
            at += n
            if n == want {
                try emit(pending)
                pending.removeAll(keepingCapacity: true)
                next += 1
            }
        }
    }

    func finish(storedHash: [UInt8]) throws {
        guard received == expected, next == units.count else {
            throw damage(.wrongLength(expected: expected, actual: received))
        }
        guard constantTimeEquals(hasher.finish(), storedHash) else { throw damage(.hashMismatch) }
    }

    private func damage(_ reason: AttachmentDamage) -> AttachmentError {
        AttachmentError.damaged(objectID: objectID, reason: reason)
    }
}
