/// How `verify`, `reindex` and `restore` count what a vault holds: entries and templates apart
/// (a template is stored as an entry object, but the user never counts it as an entry), and
/// nothing about templates when there are none.
enum EntryCountWords {
    /// "19 entries and 9 templates", "1 entry and 1 template", "0 entries".
    static func describe(entries: Int, templates: Int) -> String {
        let counted = "\(entries) entr\(entries == 1 ? "y" : "ies")"
        guard templates > 0 else { return counted }
        return counted + " and \(templates) template\(templates == 1 ? "" : "s")"
    }
}
