import DiaryApp

extension WrittenEntries {
    /// Reads what `stats` and `calendar` report on, then says what the read found damaged: the
    /// index (`warnAboutIndex`), then each entry whose words could not be counted.
    static func readWarning(_ vault: Vault, _ filter: EntryFilter = EntryFilter()) throws -> WrittenEntries {
        let written = try read(vault, filter)
        try warnAboutIndex(vault)
        for id in written.damaged {
            Output.warning("entry \(EntryFormat.fullID(id)) is damaged and its words were not counted; run `diary verify`")
        }
        return written
    }
}
