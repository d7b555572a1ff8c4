internal import CSodium

/// The one home for keys and passphrases.
///
/// The bytes live in memory from `sodium_malloc`: guard pages around it, locked so it is not
/// swapped out, and overwritten with zeros by `sodium_free` on `deinit`. They are reachable only
/// inside a closure, compare in constant time, and never print. The type is deliberately not
/// `Codable`: a secret must never be serialised by accident.
public final class SecretBytes: @unchecked Sendable {
    // The buffer is written only during initialisation; afterwards it is read-only, which is
    // what makes the `@unchecked Sendable` sound.
    private let pointer: UnsafeMutableRawPointer
    /// The number of secret bytes.
    public let count: Int

    /// Allocates `count` guarded bytes and lets `initializer` fill them in place, so the secret
    /// never exists in ordinary memory.
    public init(
        count: Int,
        initializer: (UnsafeMutableRawBufferPointer) throws -> Void
    ) throws {
        _ = Sodium.ready
        precondition(count >= 0, "negative secret length")
        // sodium_malloc(0) may return NULL on some platforms; allocate one byte and ignore it.
        guard let raw = sodium_malloc(max(count, 1)) else {
            throw CryptoError.outOfSecureMemory(count: count)
        }
        pointer = raw
        self.count = count
        sodium_memzero(raw, max(count, 1))
        // No `sodium_free` on failure here: every stored property is set, so a throw from this
        // point runs `deinit`, which zeroes and frees the buffer (freeing it here too would
        // free it twice).
        try initializer(UnsafeMutableRawBufferPointer(start: raw, count: count))
    }

    /// `count` bytes from libsodium's CSPRNG, for a new key.
    public convenience init(randomCount count: Int) throws {
        try self.init(count: count) { buffer in
            if let base = buffer.baseAddress { randombytes_buf(base, buffer.count) }
        }
    }

    /// Copies `bytes` into guarded memory and zeroes the caller's array afterwards, so the only
    /// copy left is the guarded one.
    ///
    /// Why no local copy of `bytes`: a second reference to the array's storage would make the
    /// zeroing below copy-on-write into a fresh buffer, zeroing that and freeing the original
    /// with the secret still in it. The capacity is kept so the zeroed storage is what the
    /// caller's (now empty) array still owns.
    public convenience init(consuming bytes: inout [UInt8]) throws {
        try self.init(count: bytes.count) { buffer in
            bytes.withUnsafeBytes { buffer.copyMemory(from: $0) }
        }
        bytes.withUnsafeMutableBytes { raw in
            if let base = raw.baseAddress { sodium_memzero(base, raw.count) }
        }
        bytes.removeAll(keepingCapacity: true)
    }

    deinit {
        // sodium_free zeroes the whole allocation before returning it.
        sodium_free(pointer)
    }

    /// Runs `body` with read access to the secret. Do not let the pointer escape.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// Constant-time comparison: the time taken does not depend on where the bytes differ.
    public func constantTimeEquals(_ other: SecretBytes) -> Bool {
        guard count == other.count else { return false }
        return sodium_memcmp(pointer, other.pointer, count) == 0
    }

    /// A new guarded copy of `range` of these bytes.
    public func slice(_ range: Range<Int>) throws -> SecretBytes {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "slice out of bounds")
        return try SecretBytes(count: range.count) { buffer in
            buffer.copyMemory(
                from: UnsafeRawBufferPointer(start: pointer + range.lowerBound, count: range.count))
        }
    }
}

extension SecretBytes: Equatable {
    public static func == (lhs: SecretBytes, rhs: SecretBytes) -> Bool {
        lhs.constantTimeEquals(rhs)
    }
}

extension SecretBytes: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String { "SecretBytes(\(count) bytes, redacted)" }
    public var debugDescription: String { description }
}

extension SecretBytes: CustomReflectable {
    // `dump()` and the debugger would otherwise show the stored pointer's neighbourhood.
    public var customMirror: Mirror { Mirror(self, children: ["count": count]) }
}

/// Overwrites `bytes` with zeros in a way the optimiser may not remove.
public func secureZero(_ bytes: inout [UInt8]) {
    _ = Sodium.ready
    bytes.withUnsafeMutableBytes { raw in
        if let base = raw.baseAddress { sodium_memzero(base, raw.count) }
    }
}
