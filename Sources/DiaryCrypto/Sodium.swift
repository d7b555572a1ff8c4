internal import CSodium

/// Makes sure `sodium_init()` has run before any libsodium call.
///
/// `sodium_init()` is safe to call more than once and from several threads; a Swift `static let`
/// runs its initialiser exactly once, so every entry point touches `Sodium.ready` first.
enum Sodium {
    static let ready: Void = {
        // A negative result means libsodium could not pick its random source; nothing after
        // that can be trusted, so the process stops rather than produce weak keys.
        guard sodium_init() >= 0 else {
            fatalError("libsodium failed to initialise")
        }
    }()
}

extension Array where Element == UInt8 {
    /// Calls `body` with a pointer that is never nil, even for an empty array: several
    /// libsodium parameters are declared non-null, and an empty Swift array has no storage.
    func withNonNullPointer<R>(_ body: (UnsafePointer<UInt8>, Int) throws -> R) rethrows -> R {
        if isEmpty {
            var dummy: UInt8 = 0
            return try body(&dummy, 0)
        }
        return try withUnsafeBufferPointer { try body($0.baseAddress!, $0.count) }
    }

    mutating func withNonNullMutablePointer<R>(_ body: (UnsafeMutablePointer<UInt8>, Int) throws -> R) rethrows -> R {
        if isEmpty {
            var dummy: UInt8 = 0
            return try body(&dummy, 0)
        }
        return try withUnsafeMutableBufferPointer { try body($0.baseAddress!, $0.count) }
    }
}
