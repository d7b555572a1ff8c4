import DiaryCrypto

/// How the stress child and the tests that read its output name an entry's text without
/// printing it: lowercase hex of BLAKE2b-256 over the text's UTF-8 bytes.
public func stressTextHash(_ text: String) -> String {
    BLAKE2b.hash(Array(text.utf8)).map { byte in
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }.joined()
}
