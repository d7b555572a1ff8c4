import DiaryCrypto

/// A passphrase as the library takes it, for tests that drive the vault in this process.
func secretBytes(_ text: String) throws -> SecretBytes {
    var bytes = Array(text.utf8)
    return try SecretBytes(consuming: &bytes)
}
