import Foundation

// TEMPORARY (replaced by the stores branch): lets the vault layer compile before the two
// stores land. Nothing here is used by tests.
public enum StoreLayout {
    public static func detect(at directory: URL) throws -> StoreKind { throw StoreError.noVault(path: directory.path) }
    public static func create(_ kind: StoreKind, at directory: URL, initial: StoreChange) throws -> any VaultStore {
        throw StoreError.io(path: directory.path, detail: "stores not yet available")
    }
    public static func open(at directory: URL) throws -> any VaultStore { throw StoreError.noVault(path: directory.path) }
}
final class SQLiteStore { func vacuum() throws {} }
