import DiaryAgent
import DiaryCrypto
import DiaryVault
import Foundation

/// Opens the vault with the right key, in the documented order:
///
/// 1. the unlock agent's key, if an agent holds the key of *this* vault (matched by vault id);
/// 2. else the passphrase file (`--passphrase-file` / `$DIARY_PASSPHRASE_FILE`);
/// 3. else a prompt on the terminal (`/dev/tty`, no echo);
/// 4. else fail with `CLIError.locked` (exit 75) and a hint on how to unlock.
struct VaultAccess {
    let options: GlobalOptions
    /// A vault directory given as a command argument (`verify PATH`), instead of `--vault`.
    var directoryOverride: URL? = nil

    var directory: URL { directoryOverride ?? options.vaultURL }

    /// The header, read without any key: proves the vault exists and names its id.
    func inspect() throws -> VaultInfo { try Vault.inspect(at: directory) }

    /// The vault opened with the agent's key, a passphrase file or the terminal, in that order.
    func open() throws -> Vault {
        let info = try inspect()
        if let vault = try openWithAgent(info) { return vault }
        return try Vault.open(at: directory, passphrase: currentPassphrase())
    }

    /// The vault opened with a passphrase, never the agent's key (`unlock`, `passwd`, `rekey`).
    func openWithPassphrase() throws -> (Vault, SecretBytes) {
        _ = try inspect()
        let passphrase = try currentPassphrase()
        return (try Vault.open(at: directory, passphrase: passphrase), passphrase)
    }

    /// The client of this vault's agent (whether or not one runs).
    func agent(for vaultID: UUID) throws -> AgentClient {
        AgentClient(socketURL: try AgentPaths.socketURL(vaultID: vaultID))
    }

    /// The current passphrase: from the file, else the terminal, else `locked`.
    func currentPassphrase(prompt: String? = nil) throws -> SecretBytes {
        if let path = options.passphraseFilePath { return try PassphraseFile.read(path) }
        guard let tty = TTY.open() else { throw CLIError.locked(vault: directory.path) }
        return try PassphrasePrompt.read(prompt ?? "Passphrase for \(directory.path): ", on: tty)
    }

    /// A new passphrase: from `--new-passphrase-file`, else asked twice on the terminal.
    func newPassphrase(_ source: NewPassphraseOptions) throws -> SecretBytes {
        if let path = source.path { return try PassphraseFile.read(path) }
        guard let tty = TTY.open() else { throw CLIError.noTerminalForNewPassphrase }
        return try PassphrasePrompt.readNew(on: tty)
    }

    /// Tries the agent. A missing agent, another vault's agent or a stale key (the vault was
    /// rekeyed elsewhere) falls through to the passphrase; a stale key earns a warning.
    private func openWithAgent(_ info: VaultInfo) throws -> Vault? {
        let client: AgentClient
        do { client = try agent(for: info.id) } catch { return nil }
        guard let held = try? client.fetchKey(), held.vaultID == info.id else { return nil }
        do {
            return try Vault.open(at: directory, vaultKey: held.key, keyGeneration: held.generation)
        } catch VaultError.wrongKey {
            Output.warning("the unlock agent's key does not open this vault any more; asking for the passphrase")
            return nil
        }
    }
}
