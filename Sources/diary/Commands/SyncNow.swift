import ArgumentParser
import DiaryApp
import DiarySync
import DiaryCrypto
import Foundation

/// `diary sync now` (and `diary sync` alone): one sync.
struct SyncNow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "now",
        abstract: "Publish this machine's changes and take in the others' (the default).",
        usage: "diary sync [now] [<options>]",
        discussion: """
            Uses the unlocked session's key (or asks for the passphrase). When another machine \
            rotated the vault key, asks for the passphrase set there to follow it (on a \
            terminal, again if the one typed does not open it). Exits 65 when the \
            remote contradicts what this machine saw before (rewound, a record removed, replaced \
            or forged); nothing is changed then.
            """)

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let access = VaultAccess(options: global)
        let vault = try access.open()
        let progress = SyncProgressLine()
        defer { progress.finish() }
        let engine = try SyncEngine(
            vault: vault, stateDirectory: EntrySetWatch.stateDirectory,
            passphrase: { try SyncPassphrasePrompt.ask($0, access: access) },
            progress: progress.update)
        let report = try engine.sync()
        progress.finish()
        SyncMessages.print(report)
        try Sync.handOffFollowedKey(report, vault: vault, access: access)
    }
}

/// The prompts of a sync that needs the passphrase (see `PassphraseNeed`): a passphrase file
/// answers once, a terminal up to `VaultAccess.passphraseTries` times.
private enum SyncPassphrasePrompt {
    static func ask(_ need: PassphraseNeed, access: VaultAccess) throws -> SecretBytes? {
        if need.attempt > 1, access.options.passphraseFilePath != nil || need.attempt > VaultAccess.passphraseTries {
            return nil
        }
        let prompt: String
        switch need {
        case .followRotation(let machine, let attempt):
            let name = Printable.escaped(machine)
            if attempt > 1 { Output.note("that passphrase does not open the key rotated on '\(name)'") }
            prompt = "Passphrase set on '\(name)' (the vault key was rotated there): "
        case .publishOwnChange(let attempt):
            if attempt > 1 { Output.note("that passphrase does not open this vault") }
            prompt = "Passphrase (to publish the passphrase changed here): "
        }
        return try access.passphraseIfAvailable(prompt: prompt)
    }
}
