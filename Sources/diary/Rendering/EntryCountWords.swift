/// How `verify`, `reindex` and `restore` count what a vault holds: entries and templates apart
/// (a template is stored as an entry object, but the user never counts it as an entry), and
/// nothing about templates when there are none.
enum EntryCountWords {
    /// "19 entries and 9 templates", "1 entry and 1 template", "0 entries", "3 entries,
    /// 1 template and 2 capture devices".
    static func describe(entries: Int, templates: Int, captureDevices: Int = 0) -> String {
        var parts = ["\(entries) entr\(entries == 1 ? "y" : "ies")"]
        if templates > 0 { parts.append("\(templates) template\(templates == 1 ? "" : "s")") }
        if captureDevices > 0 { parts.append("\(captureDevices) capture device\(captureDevices == 1 ? "" : "s")") }
        guard parts.count > 1 else { return parts[0] }
        return parts.dropLast().joined(separator: ", ") + " and " + parts[parts.count - 1]
    }
}
