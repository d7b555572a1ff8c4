import DiaryApp

extension WrittenEntries {
    /// Reads what `stats` and `calendar` report on through the session's guard (which says
    /// what it found of the index), then says which entries' words could not be counted.
    static func readWarning(_ session: DiarySession, _ filter: EntryFilter = EntryFilter()) throws -> WrittenEntries {
        let written = try session.read { try read($0, filter) }
        for id in written.damaged {
            Output.warning(
                "entry \(EntryFormat.fullID(id)) is damaged and its words were not counted; run `diary verify`")
        }
        return written
    }
}
