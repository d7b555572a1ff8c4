import ArgumentParser
import DiaryApp
import DiaryVault
import Foundation

/// `diary extract`: an attachment's plaintext to a file, only with explicit consent.
struct Extract: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Write an attachment to a file, as plaintext.",
        usage: "diary extract [<options>] <id> <name> --output <path>",
        discussion: """
            The file written is NOT encrypted. A warning always goes to stderr; on a terminal \
            diary then asks before writing anything. Without a terminal (scripts, pipes, cron) \
            --yes is required, also when writing to stdout; otherwise nothing is written and \
            the exit status is 64.

            Nothing is at PATH unless the whole attachment authenticated: it is written to a \
            temporary file beside PATH (mode 0600) and renamed into place only at the end. An \
            attachment that fails a check is reported as damaged (status 65) and nothing is \
            written. An existing PATH is refused (status 73) unless --force replaces it; \
            --force replaces only a regular file (a device, a FIFO, a socket, a directory or a \
            symbolic link is refused, status 73).

            If diary is interrupted (Ctrl-C, SIGTERM, SIGHUP, a file size limit), the \
            temporary file is removed. A diary killed with SIGKILL cannot remove it: the next \
            `diary extract` into that directory does.

            -o - writes to stdout: the attachment is read and checked once before any byte is \
            written, then read again as it is written. Should that second reading fail a \
            check (the vault changed in between), what was written is incomplete and must not \
            be trusted: stderr says so and the status is 65.

            To look at an attachment without leaving it on disk, use `diary open`.

            EXAMPLE
              diary extract 1b4e heron.jpg -o ~/Desktop/heron.jpg
              diary extract 1b4e notes.txt -o - --yes | wc -l
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The entry's id or id prefix.", completion: EntryCompletion.ids)
    var id: String

    @Argument(help: "The attachment's name.")
    var name: String

    @Option(
        name: [.customShort("o"), .customLong("output")],
        help: ArgumentHelp("The file to write ('-': stdout).", valueName: "path"), completion: .file())
    var output: String

    @Flag(help: "Do not ask: consent to writing plaintext.")
    var yes = false

    @Flag(help: "Replace PATH if it exists (only a regular file).")
    var force = false

    func validate() throws {
        // Swift decodes the argument replacing what is not UTF-8: that would be another file.
        if String(validating: RawArguments.bytes(of: output), as: UTF8.self) == nil {
            throw ValidationError("the output path is not UTF-8; give one that is (rename the file afterwards)")
        }
    }

    func run() throws {
        let toStdout = output == "-"
        // Refused before the passphrase and the question: the answer would not matter.
        if !toStdout { try AttachmentExtraction.refuseExisting(output, force: force) }
        let session = global.session()
        let vault = try session.openVault()
        let entryID = try vault.resolve(id.lowercased())
        let record = try AttachmentChoice.record(named: name, in: try session.read { try $0.entry(entryID) })
        let destination = toStdout ? "stdout" : output
        let what = "\(record.name) (\(AttachmentLines.size(record.length)))"
        Output.warning("the attachment is NOT encrypted once extracted: \(what) as plaintext to \(destination)")
        try confirmDestructive(
            "extracting plaintext", question: "Write \(what) as plaintext to \(destination)?", yes: yes)
        // Not fetched by a sync yet (pending): fetched now; if it cannot be, reading says it is
        // missing, and names the copies on the remote the fetch refused.
        let fetch = (try? PendingAttachment.fetchIfNeeded(record, of: vault, stateDirectory: session.stateDirectory))
        let refused = (fetch ?? nil)?.refused.filter { $0.object == record.objectID } ?? []
        do {
            if toStdout {
                try Self.stream(record, of: vault, entry: entryID) { try Self.writeAll($0, to: STDOUT_FILENO) }
            } else {
                for left in AttachmentExtraction.removeAbandoned(beside: output, isRunning: InterruptedEdits.isRunning)
                {
                    Output.note("removed \(left), left by an extract that was killed")
                }
                SignalCleanup.install()
                try AttachmentExtraction.extract(
                    record, of: vault, to: output, force: force, owner: Self.owner(),
                    tracking: SignalCleanup.rememberPartialFile)
            }
        } catch let error as AttachmentFileError {
            throw error
        } catch let error as AttachmentReadFailure {
            throw error
        } catch {
            throw AttachmentReadFailure(name: record.name, entry: entryID, underlying: error, refusedCopies: refused)
        }
        if !toStdout { Output.note("extracted \(record.name) to \(output)") }
    }

    /// This process, as the temporary file's name records it: pid and start time.
    static func owner() -> String {
        let pid = getpid()
        return "\(pid)-\(InterruptedEdits.processStart(pid) ?? 0)"
    }

    /// Checks the whole attachment, then reads it again handing it to `write`. A failure in
    /// the second reading comes after bytes were written: it is reported as output that must
    /// not be trusted (`AttachmentReadFailure.outputIncomplete`).
    static func stream(
        _ record: AttachmentRecord, of vault: Vault, entry: UUID, write: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try vault.readAttachment(record) { _ in }
        do {
            try vault.readAttachment(record, to: write)
        } catch let error as CLIError {
            throw error
        } catch {
            throw AttachmentReadFailure(name: record.name, entry: entry, underlying: error, outputIncomplete: true)
        }
    }

    static func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32) throws {
        if let code = DescriptorWrite.all(bytes, to: fd) {
            throw CLIError.system(what: "cannot write to stdout", errno: code)
        }
    }
}
