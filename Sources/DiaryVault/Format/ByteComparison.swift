import Foundation

/// True when both are nil or both hold the same bytes, compared with `memcmp`.
///
/// Why not `==`: the standard library compares arrays element by element, about ten
/// instructions a byte, and a write compares the sealed index root (about 213 KB at a million
/// entries) with the witness's copy several times. These are ciphertexts anyone with the files
/// can read, so a comparison that stops at the first difference tells nothing.
func sameBytes(_ a: [UInt8]?, _ b: [UInt8]?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    guard a.count == b.count else { return false }
    return a.withUnsafeBytes { x in
        b.withUnsafeBytes { y in a.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, a.count) == 0 }
    }
}
