import DiaryCrypto
import Foundation

/// Opens a stored attachment object as it is read, the inverse of `AttachmentSealer`: stored
/// bytes go in through `feed` in pieces of any size, authenticated plaintext comes out of
/// that call's `emit` a chunk at a time, and `finish` throws unless the whole object was right.
///
/// The checks (docs/FORMAT.md §7.6): the exact stored length the record's plaintext length
/// implies (checked up front when the caller knows it, and as bytes arrive), the prefix, every
/// chunk's authentication with its own associated data, MESSAGE on every chunk but the last
/// and FINAL on the last, nothing after it, canonical padding, and the stored hash. Plaintext
/// handed to `emit` before `finish` returns is not yet known to be the whole file: a caller
/// must not publish it before then.
public final class AttachmentOpener {
    private let vaultID: UUID
    private let objectID: UUID
    private let key: SecretBytes
    private let length: UInt64
    private let storedHash: [UInt8]
    private let expected: UInt64
    private let chunkCount: UInt64
    private let hasher = BLAKE2b.Hasher()
    private var puller: SecretStreamPuller?
    /// The prefix or stored chunk being gathered: bytes `0..<pendingCount` are set.
    private var pending = [UInt8](repeating: 0, count: AttachmentObject.storedChunkLength)
    private var pendingCount = 0
    private var plaintext: [UInt8] = []
    private var received: UInt64 = 0
    private var chunk: UInt64 = 0
    /// Bytes of the padded plaintext `P` opened so far.
    private var position: UInt64 = 0

    /// Prepares to open the object `objectID` of a `length`-byte file. With `storedLength`
    /// (the store's length of the object), a wrong length is refused here, before any byte
    /// is read or decrypted.
    public init(
        vaultID: UUID, objectID: UUID, key: SecretBytes, length: UInt64, storedHash: [UInt8],
        storedLength: UInt64? = nil
    ) throws {
        guard let expected = AttachmentObject.storedLength(for: length),
            let chunkCount = AttachmentObject.chunkCount(for: length), storedHash.count == 32,
            key.count == SecretStream.keyByteCount
        else { throw AttachmentError.damaged(objectID: objectID, reason: .invalidRecord) }
        if let storedLength, storedLength != expected {
            throw AttachmentError.damaged(
                objectID: objectID, reason: .wrongLength(expected: expected, actual: storedLength))
        }
        self.vaultID = vaultID
        self.objectID = objectID
        self.key = key
        self.length = length
        self.storedHash = storedHash
        self.expected = expected
        self.chunkCount = chunkCount
        plaintext.reserveCapacity(AttachmentObject.chunkLength)
    }

    /// The opener of the object `record` describes.
    public convenience init(record: AttachmentRecord, vaultID: UUID, storedLength: UInt64? = nil) throws {
        try self.init(
            vaultID: vaultID, objectID: record.objectID, key: record.streamKey, length: record.length,
            storedHash: record.storedHash, storedLength: storedLength)
    }

    deinit { secureZero(&plaintext) }

    /// Takes the next stored bytes, opening each chunk as it completes.
    public func feed(_ bytes: UnsafeRawBufferPointer, emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard UInt64(bytes.count) <= expected - received else {
            throw damage(.wrongLength(expected: expected, actual: received + UInt64(bytes.count)))
        }
        received += UInt64(bytes.count)
        hasher.update(bytes)
        var at = 0
        while at < bytes.count, let source = bytes.baseAddress {
            let want = nextUnitLength - pendingCount
            let n = min(want, bytes.count - at)
            pending.withUnsafeMutableBytes {
                ($0.baseAddress! + pendingCount).copyMemory(from: source + at, byteCount: n)
            }
            pendingCount += n
            at += n
            if n == want { try openUnit(emit) }
        }
    }

    /// `feed` of an array.
    public func feed(_ bytes: [UInt8], emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        try bytes.withUnsafeBytes { try feed($0, emit: emit) }
    }

    /// Throws unless the whole object arrived, ended with its FINAL chunk and hashes to the
    /// record's stored hash.
    public func finish() throws {
        guard received == expected, chunk == chunkCount else {
            throw damage(.wrongLength(expected: expected, actual: received))
        }
        guard constantTimeEquals(hasher.finish(), storedHash) else { throw damage(.hashMismatch) }
    }

    /// The length of the prefix or of the next stored chunk.
    private var nextUnitLength: Int {
        guard puller != nil else { return AttachmentObject.prefixLength }
        let padded = AttachmentObject.paddedLength(for: length)!
        let chunkBytes = min(UInt64(AttachmentObject.chunkLength), padded - position)
        return Int(chunkBytes) + AttachmentObject.chunkOverhead
    }

    private func openUnit(_ emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        defer { pendingCount = 0 }
        guard let puller else {
            guard pending[0] == AttachmentObject.version, pending[1] == AttachmentObject.kind else {
                throw damage(.wrongPrefix)
            }
            puller = try SecretStreamPuller(key: key, header: Array(pending[2..<AttachmentObject.prefixLength]))
            return
        }
        let ad = AttachmentObject.associatedData(vaultID: vaultID, objectID: objectID, chunk: chunk)
        let tag: SecretStream.Tag
        do {
            tag = try pending.withUnsafeBytes {
                try puller.pull(
                    UnsafeRawBufferPointer(rebasing: $0[..<pendingCount]), associatedData: ad, into: &plaintext)
            }
        } catch {
            throw damage(.chunkRefused(chunk: chunk))
        }
        guard tag == (chunk == chunkCount - 1 ? .final : .message) else { throw damage(.wrongTag(chunk: chunk)) }
        try release(emit)
        chunk += 1
    }

    /// Emits the chunk's part of the file and checks its part of the padding.
    private func release(_ emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        let start = position
        position += UInt64(plaintext.count)
        let fileBytes = Int(min(max(length, start), position) - start)
        if fileBytes > 0 {
            try plaintext.withUnsafeBytes { try emit(UnsafeRawBufferPointer(rebasing: $0[..<fileBytes])) }
        }
        if fileBytes < plaintext.count {
            // The chunk's padding: 0x80 where the file ends (if it ends here), zeros after it.
            let marker = start + UInt64(fileBytes) == length
            let canonical = plaintext.withUnsafeBytes { raw in
                let rest = UnsafeRawBufferPointer(rebasing: raw[(fileBytes + (marker ? 1 : 0))...])
                return (!marker || raw[fileBytes] == 0x80) && Self.isZero(rest)
            }
            guard canonical else { throw damage(.badPadding) }
        }
        secureZero(&plaintext)
    }

    /// Whether every byte is zero, a word at a time (padding may be 512 MiB of a 4 GiB file).
    private static func isZero(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var any: UInt64 = 0
        var at = 0
        while at + 8 <= bytes.count {
            any |= base.loadUnaligned(fromByteOffset: at, as: UInt64.self)
            at += 8
        }
        while at < bytes.count {
            any |= UInt64(bytes[at])
            at += 1
        }
        return any == 0
    }

    private func damage(_ reason: AttachmentDamage) -> AttachmentError {
        .damaged(objectID: objectID, reason: reason)
    }
}
