import DiaryStore
import Foundation

extension VaultExposure {
    /// The vault directory and the file that holds its header (`vault.sqlite` or
    /// `vault.header`), as `lstat` shows them: two system calls, cheap enough for every command
    /// to check the modes that `diary audit` checks on every file.
    public static func mainFiles(at directory: URL, store: StoreKind) -> [FileFacts] {
        let header = store == .sqlite ? SQLiteStore.databaseName : FileStore.headerName
        return [".", header].compactMap { try? stat(directory, $0) }
    }
}
