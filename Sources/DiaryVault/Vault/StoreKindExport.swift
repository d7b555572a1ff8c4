// `Vault.create`, `restore` and sync take a `StoreKind`, so a client of the vault must be able
// to name it without importing the store layer: only that one type is re-exported, and the
// CLI keeps no import of DiaryStore (ArchitectureTests checks it).
@_exported import enum DiaryStore.StoreKind
