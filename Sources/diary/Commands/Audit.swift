import ArgumentParser
import DiaryApp
import DiaryCrypto
import DiaryVault
import Foundation

/// `diary audit`: what a copy of the vault reveals, and which settings are weak.
struct Audit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Show what someone who copies the vault can learn, and warn about weak settings.",
        usage: "diary audit [<options>]",
        discussion: """
            Needs no passphrase: it looks at the vault's files the way someone who copied them \
            would, and prints what they show (the store, the vault id and key derivation cost \
            from the header, the number of entries and their padded sizes, the number of \
            attachments and their padded sizes, whether file times date the entries or \
            attachments), followed by one `warning:` line per weak setting: a key \
            derivation cost below the default, files or directories open wider than 0600/0700, \
            leftover editor directories, an interrupted key rotation, or no backup verified \
            (`diary verify BACKUP`) in the last \(AuditFindings.backupMaxAgeDays) days.

            The report, warnings included, is the command's data and goes to stdout; --json \
            prints it as one object with sorted keys. The exit status is 0 whether or not there \
            are warnings (scripts read the `warnings` array); it is non-zero only when the vault \
            cannot be read.

            Every command that opens the vault also prints the cheap part of these warnings (a \
            key derivation cost below the default, a vault directory or header file open wider \
            than 0700/0600) on stderr.

            EXAMPLE
              diary audit
              diary audit --json | jq .warnings
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print JSON (one object with sorted keys) instead of lines.")
    var json = false

    func run() throws {
        let session = global.session()
        let exposure = try VaultExposure.measure(at: session.directory)
        let lastVerified = try? VerifiedBackups(stateDirectory: session.stateDirectory)
            .lastVerified(vaultID: exposure.info.id)
        let findings = AuditFindings(
            exposure: exposure, lastVerifiedBackup: lastVerified, editorLeftovers: AuditFindings.editorLeftovers(),
            now: Date())
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            Output.data(String(decoding: try encoder.encode(findings.report), as: UTF8.self))
        } else {
            // Lines for a person: paths (other users can name directories in /dev/shm) escaped.
            for line in findings.lines { Output.data(Printable.escaped(line)) }
        }
    }
}
