import DiaryVault

/// Entry text, checked the way the vault will check it, before anything is stored.
public enum TextInput {
    /// The text of `bytes` read from `source` (`stdin`): `total` is how many bytes there were,
    /// more than `bytes` holds when the reader stopped keeping them past `limit`. Throws
    /// `InputError.tooLarge` past the limit, `.notUTF8` for bytes that are not UTF-8.
    public static func decode(_ bytes: [UInt8], total: Int, limit: Int, source: String) throws -> String {
        guard total <= limit else { throw InputError.tooLarge(bytes: total, limit: limit) }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw InputError.notUTF8(source: source) }
        return text
    }

    /// Refuses text that is too large (`InputError.tooLarge`) or empty after trimming white
    /// space (`.emptyText`).
    public static func check(_ text: String, limit: Int) throws {
        let count = text.utf8.count
        guard count <= limit else { throw InputError.tooLarge(bytes: count, limit: limit) }
        guard !EntryText.isBlank(text) else { throw InputError.emptyText }
    }
}
