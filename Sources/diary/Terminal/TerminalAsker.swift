import DiaryApp
import DiaryCrypto
import Foundation

/// The session's asker on the controlling terminal (`/dev/tty`, no echo): the prompts and the
/// "try again" lines are worded here; how often to ask is the session's rule.
struct TerminalAsker: PassphraseAsker {
    var canAsk: Bool { TTY.open() != nil }

    func ask(_ reason: PassphraseReason, attempt: Int) throws -> SecretBytes? {
        guard let tty = TTY.open() else { return nil }
        let prompt: String
        switch reason {
        case .unlock(let path):
            if attempt > 1 { tty.write("Sorry, try again.\n") }
            prompt = "Passphrase for \(Printable.escaped(path)): "
        case .backup(let path):
            if attempt > 1 { tty.write("Sorry, try again (the passphrase in force when the backup was made).\n") }
            prompt = "Passphrase for backup \(Printable.escaped(path)): "
        case .syncedVault:
            prompt = "Passphrase of the synced vault: "
        case .followRotation(let machine):
            let name = Printable.escaped(machine)
            if attempt > 1 { Output.note("that passphrase does not open the header published on '\(name)'") }
            prompt = "Passphrase set on '\(name)' (the new one, published there): "
        case .publishOwnChange:
            if attempt > 1 { Output.note("that passphrase does not open this vault") }
            prompt = "Passphrase (to publish the passphrase changed here): "
        }
        return try PassphrasePrompt.read(prompt, on: tty)
    }

    func askNew(
        triesOnMismatch: Int, weakTries: Int, weakness: (SecretBytes) -> PassphraseWeakness?
    ) throws -> SecretBytes? {
        guard let tty = TTY.open() else { return nil }
        return try PassphrasePrompt.readNew(
            on: tty, tries: triesOnMismatch, weakTries: weakTries,
            weakness: { weakness($0).map(PassphraseWords.weakness) })
    }
}
