/// Input the application refuses before anything is read or stored: the CLI words each case
/// and picks its exit status.
public enum InputError: Error, Equatable, Sendable {
    /// Entry text larger than the limit; `bytes` is how large it was.
    case tooLarge(bytes: Int, limit: Int)
    /// Entry text that is not valid UTF-8; `source` names where it came from (`stdin`).
    case notUTF8(source: String)
    /// Entry text that is empty after trimming white space.
    case emptyText
    /// Search arguments that leave no term to look for.
    case emptySearch
    /// A search argument with an odd number of double quotes.
    case unpairedQuote(argument: String)
    /// A tag with white space inside (`a b`), shown as cleaned (`#a b` → `a b`).
    case tagWithSpace(tag: String)
}
