import ArgumentParser
import DiaryApp
import DiaryCrypto
import DiaryVault
import Foundation

/// `diary init`: create a vault.
struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a new vault.",
        usage: "diary init [<options>]",
        discussion: """
            Asks for the new passphrase twice, without echo, on the terminal (or reads the first \
            line of --new-passphrase-file). An empty passphrase is refused; a repeat that differs \
            is asked for again (three tries), then nothing is written. The vault's directory must \
            be new or empty: an existing vault is never overwritten, and a directory holding \
            other files is refused, naming them. A vault path that is a symbolic link makes the \
            vault where the link leads (as every command follows it to open the vault).

            A weak passphrase (too short, repeated or in sequence, or among the most common; see \
            docs/GUIDE.md) is refused with the reason: at the terminal as soon as it is typed, \
            asking again (three tries); from a file with status 67. --allow-weak-passphrase uses \
            it anyway.

            --store chooses the shape on disk: `sqlite` (one database) or `files` (one file per \
            entry); without it, the config's `store`, else sqlite. --kdf chooses the Argon2id \
            cost; `moderate` (256 MiB, 3 passes) is the default.

            On a terminal, init then offers to make a recovery key (`diary recovery-key \
            create`), shown once, which resets a forgotten passphrase.

            --journal NAME (-j) registers the new vault as the named journal NAME: at --vault \
            PATH when given, else at $XDG_DATA_HOME/diary-NAME. A NAME already registered makes \
            the vault at its registered path.

            EXAMPLE
              diary init --store files --kdf sensitive
              diary init --journal work --vault ~/work-diary
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var newPassphrase: NewPassphraseOptions

    @Option(help: "How entries are stored: sqlite or files (default: the config's store, else sqlite).")
    var store: StoreKind?

    @Option(help: "Argon2id cost: interactive, moderate or sensitive.")
    var kdf: KDFPreset = .moderate

    func run() throws {
        let (named, journal) = Settings.newVault(global, path: global.vault)
        let directory = Self.followingLinks(named)
        let session = global.session(directory: directory)
        // Refuse before asking anything: a passphrase typed for nothing is a bad experience.
        do {
            _ = try session.inspect()
            throw VaultError.alreadyExists(path: directory.path)
        } catch VaultError.noVault {
            // The expected case.
        } catch VaultError.notAVault {
            throw Self.occupied(directory)
        }
        let source = newPassphrase.source
        let passphrase = try session.newPassphrase(fileOption: source.fileOption, allowWeak: source.allowWeak)
        try FileManager.default.createDirectory(
            at: directory.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let parameters = session.environment.insecureTestKDF ? KDFParameters.insecureForTesting : kdf.parameters
        if session.environment.insecureTestKDF {
            Output.warning("DIARY_INSECURE_TEST_KDF=1: using deliberately weak key derivation (tests only)")
        }
        let store = store ?? Settings.current.store ?? .sqlite
        let vault = try Vault.create(at: directory, store: store, passphrase: passphrase, kdf: parameters)
        session.created(vault)
        let through = named.path == directory.path ? "" : " (through \(Printable.escaped(named.path)))"
        Output.note("created a \(vault.store.rawValue) vault at \(Printable.escaped(directory.path))\(through)")
        if let journal { try Settings.register(journal, at: named) }
        if let tty = TTY.open() { try Self.offerRecoveryKey(vault, passphrase: passphrase, session: session, tty: tty) }
    }

    /// On a terminal: a recovery key now, while the passphrase is at hand (a forgotten one
    /// otherwise loses the diary). No means none; `diary recovery-key create` makes one later.
    static func offerRecoveryKey(_ vault: Vault, passphrase: SecretBytes, session: DiarySession, tty: TTY) throws {
        tty.write("Without the passphrase the diary cannot be opened; a recovery key can reset it.\n")
        guard tty.confirm("Create a recovery key now?") else {
            Output.note("no recovery key made; `diary recovery-key create` makes one")
            return
        }
        let created: RecoveryKeyCreated
        do {
            created = try RecoveryKeys(session).create(in: vault, passphrase: passphrase, replace: false) {
                try RecoveryKeyDisplay.showUntilWrittenDown(
                    $0, on: tty,
                    interrupted:
                        "\ndiary: interrupted; the vault was made without a recovery key: `diary recovery-key create` makes one\n"
                )
            }
        } catch is RecoveryKeyCancelled {
            Output.note("no recovery key made; `diary recovery-key create` makes one")
            return
        } catch let error as RecoveryKeySetDespiteError {
            throw RecoveryKeyKeptDespiteError(holder: "the recovery key just shown", error: error)
        } catch let error as RecoveryKeyNotSet {
            throw RecoveryKeyOutputTakenBack(path: nil, underlying: error.underlying)
        }
        Output.note(RecoveryWording.created(created.status, replaced: false))
    }

    /// Where the vault is made when its path is a symbolic link: where the link leads (made if
    /// missing), as every other command follows the link to open the vault. The store itself
    /// creates only a real directory, never over a link.
    static func followingLinks(_ directory: URL) -> URL {
        var url = directory.standardizedFileURL
        for _ in 0..<32 {
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path) else {
                return url
            }
            url =
                URL(fileURLWithPath: destination, relativeTo: url.deletingLastPathComponent()).absoluteURL
                .standardizedFileURL
        }
        return url  // a loop of links: the store's own refusal names it
    }

    /// The refusal for a place that holds something other than a vault, naming what is in the
    /// way (the first few names, sorted), so the user can move it or choose another place.
    static func occupied(_ directory: URL) -> CLIError {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue
        else { return .initOccupied(path: directory.path, names: [], more: 0) }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
        let shown = Array(names.prefix(3))
        return .initOccupied(path: directory.path, names: shown, more: names.count - shown.count)
    }
}

extension StoreKind: ExpressibleByArgument {}

/// The Argon2id presets offered by `init` and `passwd`.
enum KDFPreset: String, ExpressibleByArgument, CaseIterable {
    case interactive, moderate, sensitive

    var parameters: KDFParameters {
        switch self {
        case .interactive: return .interactive
        case .moderate: return .moderate
        case .sensitive: return .sensitive
        }
    }
}
