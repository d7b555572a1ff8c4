internal import CSodium

/// Unkeyed BLAKE2b (`crypto_generichash`): checksums and content hashes, never for secrecy.
public enum BLAKE2b {
    /// The hash of `bytes`, `outputCount` bytes long (16…64; 32 by default).
    public static func hash(_ bytes: [UInt8], outputCount: Int = 32) -> [UInt8] {
        _ = Sodium.ready
        precondition((16...64).contains(outputCount), "BLAKE2b output length out of range")
        var out = [UInt8](repeating: 0, count: outputCount)
        let rc = out.withNonNullMutablePointer { o, _ in
            bytes.withNonNullPointer { i, iCount in
                crypto_generichash(o, outputCount, i, UInt64(iCount), nil, 0)
            }
        }
        precondition(rc == 0, "crypto_generichash failed with valid lengths")
        return out
    }
}

extension BLAKE2b {
    /// Incremental BLAKE2b, for data too large to hold at once (backup files).
    public final class Hasher {
        // The state is libsodium's opaque crypto_generichash_state, kept behind a raw pointer
        // so no C type reaches the public API.
        private let state: UnsafeMutableRawPointer
        private let outputCount: Int
        private var finished = false

        public init(outputCount: Int = 32) {
            _ = Sodium.ready
            precondition((16...64).contains(outputCount), "BLAKE2b output length out of range")
            self.outputCount = outputCount
            state = UnsafeMutableRawPointer.allocate(
                byteCount: crypto_generichash_statebytes(), alignment: 64)
            let rc = crypto_generichash_init(
                OpaquePointer(state), nil, 0, outputCount)
            precondition(rc == 0, "crypto_generichash_init failed")
        }

        /// Keyed BLAKE2b, incremental (`BLAKE2b.keyedHash` of data too large to hold at once).
        /// The state depends on the key, so it lives in guarded memory and is zeroed when freed.
        public init(key: SecretBytes, outputCount: Int = 32) throws {
            _ = Sodium.ready
            precondition((16...64).contains(outputCount), "BLAKE2b output length out of range")
            guard (16...64).contains(key.count) else {
                throw CryptoError.invalidLength(what: "BLAKE2b key", expected: "16...64", actual: key.count)
            }
            self.outputCount = outputCount
            let size = crypto_generichash_statebytes()
            guard let raw = sodium_malloc(size) else { throw CryptoError.outOfSecureMemory(count: size) }
            state = raw
            guarded = true
            let rc = key.withUnsafeBytes { k in
                crypto_generichash_init(
                    OpaquePointer(state), k.baseAddress!.assumingMemoryBound(to: UInt8.self), k.count, outputCount)
            }
            precondition(rc == 0, "crypto_generichash_init failed")
        }

        private var guarded = false

        deinit { if guarded { sodium_free(state) } else { state.deallocate() } }

        /// Adds the bytes in `raw` without copying them into an array.
        public func update(_ raw: UnsafeRawBufferPointer) {
            precondition(!finished, "hasher already finished")
            guard let base = raw.baseAddress, raw.count > 0 else { return }
            let rc = crypto_generichash_update(
                OpaquePointer(state), base.assumingMemoryBound(to: UInt8.self), UInt64(raw.count))
            precondition(rc == 0, "crypto_generichash_update failed")
        }

        public func update(_ bytes: [UInt8]) {
            precondition(!finished, "hasher already finished")
            let rc = bytes.withNonNullPointer { p, n in
                crypto_generichash_update(
                    OpaquePointer(state), p, UInt64(n))
            }
            precondition(rc == 0, "crypto_generichash_update failed")
        }

        public func finish() -> [UInt8] {
            precondition(!finished, "hasher already finished")
            finished = true
            var out = [UInt8](repeating: 0, count: outputCount)
            let rc = out.withNonNullMutablePointer { o, n in
                crypto_generichash_final(OpaquePointer(state), o, n)
            }
            precondition(rc == 0, "crypto_generichash_final failed")
            return out
        }
    }
}

/// Constant-time equality of two public byte strings of equal length (tags, hashes).
public func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    constantTimeEquals(a[...], b)
}

/// The same for a slice, such as the tag at the end of a sealed object, without copying it.
public func constantTimeEquals(_ a: ArraySlice<UInt8>, _ b: [UInt8]) -> Bool {
    _ = Sodium.ready
    guard a.count == b.count else { return false }
    if a.isEmpty { return true }
    return a.withUnsafeBytes { x in
        b.withUnsafeBytes { y in sodium_memcmp(x.baseAddress!, y.baseAddress!, a.count) == 0 }
    }
}
