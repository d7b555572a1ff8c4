import DiaryCrypto
import Foundation

/// Seals a file into an attachment object as it is read (docs/FORMAT.md §7.6): the plaintext
/// is taken in pieces of any size, and the stored object is handed out piece by piece (the
/// 26-byte prefix, then each sealed chunk) to the `emit` closure of the call that completes it
/// (a closure per call, so a store's non-escaping writer can be passed straight through).
/// Memory holds one chunk, never the file.
///
/// A full 64 KiB chunk of plaintext is never the last one (padding adds at least one byte),
/// so it is sealed as soon as it fills; `finish` pads and seals the rest, the last with FINAL.
public final class AttachmentSealer {
    /// What the record needs from the sealed object.
    public struct Sealed: Equatable, Sendable {
        /// Plaintext bytes.
        public let length: UInt64
        /// BLAKE2b-256 of every stored byte.
        public let storedHash: [UInt8]
        /// BLAKE2b-256 of the plaintext keyed by the dedup key; 32 zeros without one.
        public let dedupHash: [UInt8]
    }

    private let vaultID: UUID
    private let objectID: UUID
    private let pusher: SecretStreamPusher
    private let storedHasher = BLAKE2b.Hasher()
    private let dedupHasher: BLAKE2b.Hasher?
    /// One chunk of P being filled: bytes `0..<filled` are set. Copied into with `memcpy`-like
    /// calls, never a byte at a time.
    private var buffer = [UInt8](repeating: 0, count: AttachmentObject.chunkLength)
    private var filled = 0
    private var sealedChunk: [UInt8] = []
    private var chunk: UInt64 = 0
    private var length: UInt64 = 0
    private var finished = false
    private var prefixSent = false

    /// Starts an object under `key` (a fresh `SecretStream.keygen()` key). With `dedupKey`,
    /// the plaintext's keyed hash is computed as it passes. The prefix is emitted by the first
    /// `push` or `finish`.
    public init(vaultID: UUID, objectID: UUID, key: SecretBytes, dedupKey: SecretBytes?) throws {
        self.vaultID = vaultID
        self.objectID = objectID
        pusher = try SecretStreamPusher(key: key)
        dedupHasher = try dedupKey.map { try BLAKE2b.Hasher(key: $0, outputCount: 32) }
    }

    deinit {
        // The buffer held plaintext.
        secureZero(&buffer)
    }

    /// Adds `bytes` of plaintext. Throws `AttachmentError.tooLarge` once the file passes
    /// 4 GiB (nothing past the limit is sealed; the caller discards the object).
    public func push(_ bytes: UnsafeRawBufferPointer, emit: (_ piece: [UInt8]) throws -> Void) throws {
        precondition(!finished, "push after finish")
        guard UInt64(bytes.count) <= AttachmentLimits.maximumLength - length else {
            throw AttachmentError.tooLarge(limit: AttachmentLimits.maximumLength)
        }
        try sendPrefix(emit)
        length += UInt64(bytes.count)
        dedupHasher?.update(bytes)
        var at = 0
        while at < bytes.count, let source = bytes.baseAddress {
            let n = min(AttachmentObject.chunkLength - filled, bytes.count - at)
            buffer.withUnsafeMutableBytes { ($0.baseAddress! + filled).copyMemory(from: source + at, byteCount: n) }
            filled += n
            at += n
            if filled == AttachmentObject.chunkLength { try seal(final: false, emit) }
        }
    }

    /// `push` of an array.
    public func push(_ bytes: [UInt8], emit: (_ piece: [UInt8]) throws -> Void) throws {
        try bytes.withUnsafeBytes { try push($0, emit: emit) }
    }

    /// Pads, seals the rest (the last chunk FINAL) and returns what the record needs.
    /// Throws `AttachmentError.empty` for a file of no bytes.
    public func finish(emit: (_ piece: [UInt8]) throws -> Void) throws -> Sealed {
        precondition(!finished, "finish twice")
        finished = true
        guard length > 0, let padded = AttachmentObject.paddedLength(for: length) else {
            throw length == 0 ? AttachmentError.empty : AttachmentError.tooLarge(limit: AttachmentLimits.maximumLength)
        }
        try sendPrefix(emit)
        var padding = padded - length
        var marker = true
        while padding > 0 {
            let n = Int(min(UInt64(AttachmentObject.chunkLength - filled), padding))
            buffer.withUnsafeMutableBytes {
                ($0.baseAddress! + filled).initializeMemory(as: UInt8.self, repeating: 0, count: n)
            }
            if marker { buffer[filled] = 0x80 }
            marker = false
            filled += n
            padding -= UInt64(n)
            try seal(final: padding == 0, emit)
        }
        return Sealed(
            length: length, storedHash: storedHasher.finish(),
            dedupHash: dedupHasher?.finish() ?? [UInt8](repeating: 0, count: 32))
    }

    private func sendPrefix(_ emit: (_ piece: [UInt8]) throws -> Void) throws {
        guard !prefixSent else { return }
        prefixSent = true
        try output([AttachmentObject.version, AttachmentObject.kind] + pusher.header, emit)
    }

    private func seal(final: Bool, _ emit: (_ piece: [UInt8]) throws -> Void) throws {
        let ad = AttachmentObject.associatedData(vaultID: vaultID, objectID: objectID, chunk: chunk)
        buffer.withUnsafeBytes {
            pusher.push(
                UnsafeRawBufferPointer(rebasing: $0[..<filled]), associatedData: ad, tag: final ? .final : .message,
                into: &sealedChunk)
        }
        secureZero(&buffer)
        filled = 0
        chunk += 1
        try output(sealedChunk, emit)
    }

    private func output(_ piece: [UInt8], _ emit: (_ piece: [UInt8]) throws -> Void) throws {
        storedHasher.update(piece)
        try emit(piece)
    }
}
