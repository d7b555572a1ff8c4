internal import CSodium

/// libsodium's `crypto_secretstream_xchacha20poly1305`: a long message sealed in chunks, each
/// authenticated with its own associated data and a tag, in an order the reader checks.
///
/// Used for attachments (docs/FORMAT.md §7.6), which are too large to seal or open whole.
/// Truncation is caught by the tags (the last chunk carries `final`), reordering and dropping
/// by the stream state (every chunk's key depends on all chunks before it).
public enum SecretStream {
    public static let keyByteCount = 32
    public static let headerByteCount = 24
    /// Bytes a chunk grows by when pushed: an encrypted tag byte and a 16-byte MAC.
    public static let chunkOverhead = 17

    /// The tag sealed with each chunk (libsodium's `TAG_*` values).
    public enum Tag: UInt8, Sendable {
        case message = 0
        case push = 1
        case rekey = 2
        case final = 3
    }

    /// A fresh random stream key in guarded memory.
    public static func keygen() throws -> SecretBytes {
        _ = Sodium.ready
        return try SecretBytes(count: keyByteCount) { buffer in
            crypto_secretstream_xchacha20poly1305_keygen(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
    }

    static func checkKey(_ key: SecretBytes) throws {
        guard key.count == keyByteCount else {
            throw CryptoError.invalidLength(what: "stream key", expected: "\(keyByteCount)", actual: key.count)
        }
    }
}

/// The stream's running state, in guarded memory: it holds the current chunk key.
final class SecretStreamState {
    let pointer: UnsafeMutablePointer<crypto_secretstream_xchacha20poly1305_state>

    init() throws {
        _ = Sodium.ready
        let size = crypto_secretstream_xchacha20poly1305_statebytes()
        guard let raw = sodium_malloc(size) else { throw CryptoError.outOfSecureMemory(count: size) }
        sodium_memzero(raw, size)
        pointer = raw.bindMemory(to: crypto_secretstream_xchacha20poly1305_state.self, capacity: 1)
    }

    deinit { sodium_free(pointer) }
}

/// The writing side: `header` first, then each chunk from `push`.
public final class SecretStreamPusher {
    private let state: SecretStreamState
    /// The 24-byte stream header the reader needs first.
    public let header: [UInt8]

    public init(key: SecretBytes) throws {
        try SecretStream.checkKey(key)
        let state = try SecretStreamState()
        self.state = state
        var header = [UInt8](repeating: 0, count: SecretStream.headerByteCount)
        let rc = header.withUnsafeMutableBufferPointer { h in
            key.withUnsafeBytes { k in
                crypto_secretstream_xchacha20poly1305_init_push(
                    state.pointer, h.baseAddress!, k.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
        }
        precondition(rc == 0, "crypto_secretstream_xchacha20poly1305_init_push failed")
        self.header = header
    }

    /// Seals one chunk into `out` (replacing its contents: `message.count + chunkOverhead`
    /// bytes; its storage is reused when it has that size already). Like libsodium,
    /// this does not stop a push after a `final` chunk: the format's writer never does it, and
    /// tests craft such streams to check that readers refuse them.
    public func push(
        _ message: UnsafeRawBufferPointer, associatedData: [UInt8], tag: SecretStream.Tag, into out: inout [UInt8]
    ) {
        // Sized with one memset, not appended element by element: a 64 KiB chunk at a time.
        if out.count != message.count + SecretStream.chunkOverhead {
            out = [UInt8](repeating: 0, count: message.count + SecretStream.chunkOverhead)
        }
        var written: UInt64 = 0
        var dummy: UInt8 = 0
        let rc = out.withUnsafeMutableBufferPointer { o in
            associatedData.withNonNullPointer { ad, adCount in
                withUnsafePointer(to: &dummy) { empty in
                    crypto_secretstream_xchacha20poly1305_push(
                        state.pointer, o.baseAddress!, &written,
                        message.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? empty, UInt64(message.count),
                        ad, UInt64(adCount), tag.rawValue)
                }
            }
        }
        precondition(rc == 0 && written == UInt64(message.count + SecretStream.chunkOverhead), "secretstream push")
    }

    /// `push` of an array, returning the sealed chunk.
    public func push(_ message: [UInt8], associatedData: [UInt8], tag: SecretStream.Tag) -> [UInt8] {
        var out: [UInt8] = []
        message.withUnsafeBytes { push($0, associatedData: associatedData, tag: tag, into: &out) }
        return out
    }
}

/// The reading side: made from the header, then `pull` for each chunk in order.
public final class SecretStreamPuller {
    private let state: SecretStreamState

    /// Throws `authenticationFailed` when the header is not 24 bytes or libsodium refuses it.
    public init(key: SecretBytes, header: [UInt8]) throws {
        try SecretStream.checkKey(key)
        guard header.count == SecretStream.headerByteCount else {
            throw CryptoError.invalidLength(
                what: "stream header", expected: "\(SecretStream.headerByteCount)", actual: header.count)
        }
        state = try SecretStreamState()
        let rc = header.withUnsafeBufferPointer { h in
            key.withUnsafeBytes { k in
                crypto_secretstream_xchacha20poly1305_init_pull(
                    state.pointer, h.baseAddress!, k.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
        }
        guard rc == 0 else { throw CryptoError.authenticationFailed }
    }

    /// Opens one sealed chunk into `out` (replacing its contents) and returns the chunk's tag.
    /// Throws `authenticationFailed` for a chunk that does not authenticate here (changed,
    /// out of order, from another stream, other associated data); `out` is then empty.
    public func pull(
        _ sealed: UnsafeRawBufferPointer, associatedData: [UInt8], into out: inout [UInt8]
    ) throws -> SecretStream.Tag {
        guard sealed.count >= SecretStream.chunkOverhead, let base = sealed.baseAddress else {
            throw CryptoError.invalidLength(
                what: "stream chunk", expected: ">= \(SecretStream.chunkOverhead)", actual: sealed.count)
        }
        if out.count != sealed.count - SecretStream.chunkOverhead {
            out = [UInt8](repeating: 0, count: sealed.count - SecretStream.chunkOverhead)
        }
        var written: UInt64 = 0
        var tag: UInt8 = 0xFF
        let rc = out.withNonNullMutablePointer { o, _ in
            associatedData.withNonNullPointer { ad, adCount in
                crypto_secretstream_xchacha20poly1305_pull(
                    state.pointer, o, &written, &tag, base.assumingMemoryBound(to: UInt8.self),
                    UInt64(sealed.count), ad, UInt64(adCount))
            }
        }
        guard rc == 0, written == UInt64(out.count), let known = SecretStream.Tag(rawValue: tag) else {
            secureZero(&out)
            out.removeAll(keepingCapacity: true)
            throw CryptoError.authenticationFailed
        }
        return known
    }

    /// `pull` of an array, returning the message and its tag.
    public func pull(_ sealed: [UInt8], associatedData: [UInt8]) throws -> (message: [UInt8], tag: SecretStream.Tag) {
        var out: [UInt8] = []
        let tag = try sealed.withUnsafeBytes { try pull($0, associatedData: associatedData, into: &out) }
        return (out, tag)
    }
}
