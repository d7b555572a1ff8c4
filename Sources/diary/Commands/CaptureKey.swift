import ArgumentParser
import DiaryApp
import DiaryVault
import Foundation

/// `diary capture-key`: enrol, list and revoke the devices that may add entries with
/// `diary capture` without being able to read the diary.
struct CaptureKeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture-key",
        abstract: "Enrol, list and revoke write-only capture devices.",
        discussion: """
            A capture key lets another machine (a phone, a work laptop, a cron job) add entries \
            to this vault with `diary capture`, and never read any. Entries it adds arrive at the \
            next command that opens the vault with its key, marked with the device's name \
            (source capture:NAME). A revoked device's captures are refused and moved aside.

            EXAMPLE
              diary capture-key create phone --output phone.key
              diary capture-key list
              diary capture-key revoke phone
            """,
        subcommands: [CaptureKeyCreate.self, CaptureKeyList.self, CaptureKeyRevoke.self])
}

/// `diary capture-key create NAME [--output FILE]`.
struct CaptureKeyCreate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Enrol a capture device and write its key.",
        discussion: """
            The key is written to FILE, a new file (mode 0600; an existing FILE is refused, \
            status 73), or to stdout when stdout is a pipe or an empty file only you can read (never a \
            terminal: the key is a secret). Copy it to the device and keep it private there: whoever holds it can \
            add entries marked with NAME until it is revoked, but cannot read anything. NAME is \
            unique in the vault (letter case ignored; a revoked device keeps its name), at most \
            64 bytes, one line, no space at either end.

            EXAMPLE
              diary capture-key create phone --output phone.key
              diary capture-key create cron | ssh server 'umask 077; cat > diary.key'
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The device's name.")
    var name: String

    @Option(name: .customLong("output"), help: ArgumentHelp("Write the key to this new file.", valueName: "file"))
    var output: String?

    func validate() throws {
        guard CaptureDeviceName.isValid(name) else {
            throw ValidationError(CaptureWording.invalidName(name))
        }
        guard output == nil else { return }
        if isatty(STDOUT_FILENO) == 1 {
            throw ValidationError("the key is a secret and is not shown on a terminal; give --output FILE")
        }
        // Only a pipe or a file only you can read: `> key` makes a file as the umask says, often
        // readable by all, and `> /dev/null` would enrol a device whose key nobody holds.
        var info = stat()
        guard fstat(STDOUT_FILENO, &info) == 0 else { throw ValidationError("stdout is closed; give --output FILE") }
        let kind = info.st_mode & S_IFMT
        if kind == S_IFIFO { return }
        guard kind == S_IFREG else {
            throw ValidationError("stdout is neither a pipe nor a file; give --output FILE, which is created 0600")
        }
        if info.st_mode & 0o077 != 0 || info.st_uid != getuid() {
            throw ValidationError(
                "stdout is a file others can read (mode 0\(String(info.st_mode & 0o777, radix: 8))); give --output FILE, "
                    + "which is created 0600")
        }
        // `>> phone.key` would append a second key to one, making both unreadable.
        if info.st_size != 0 {
            throw ValidationError("stdout is a file that is not empty; give --output FILE, which is created 0600")
        }
    }

    func run() throws {
        let session = global.session()
        let vault = try session.openVault()
        if let output {
            _ = try CaptureKeys.create(name, in: vault, output: output)
            Output.note(
                "enrolled capture device \(Printable.escaped(name)); its key is in \(Printable.escaped(output))")
        } else {
            _ = try CaptureKeys.create(name, in: vault, deliver: Self.writeToStdout)
            Output.note("enrolled capture device \(Printable.escaped(name)); its key was written to stdout")
        }
        Output.hint("on the device: diary capture --key FILE --to DIR TEXT (DIR: this vault or a folder sync remote)")
    }

    /// Every byte to stdout, or an error (a closed pipe): the device is then withdrawn.
    static func writeToStdout(_ bytes: [UInt8]) throws {
        // A reader gone (`| ssh host …` that failed) must be an EPIPE, not a SIGPIPE that kills
        // diary before the withdrawal runs and leaves an enrolled device whose key nobody has.
        var ignore = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        var previous = sigaction()
        sigaction(SIGPIPE, &ignore, &previous)
        defer { sigaction(SIGPIPE, &previous, nil) }
        if let code = bytes.withUnsafeBytes({ DescriptorWrite.all($0, to: STDOUT_FILENO) }) {
            // Said after `CaptureKeys.create` withdrew the device (nobody holds its key).
            let detail = String(cString: strerror(code))
            throw CaptureAppError.io(
                path: "stdout", detail: "\(detail); the key was not handed over: no device enrolled")
        }
    }
}

/// `diary capture-key list [--json]`.
struct CaptureKeyList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the enrolled capture devices.",
        discussion: """
            One line per device, by name: the name, when it was enrolled, how many of its \
            captures were taken in, its key's fingerprint, and "revoked" with the date for a \
            revoked one. --json prints the same as an array of objects. Nothing when there is none.
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print JSON.")
    var json = false

    struct Record: Encodable {
        var name: String
        var id: String
        var enrolled: String
        var revoked: String?
        var takenIn: UInt64
        var fingerprint: String
    }

    func run() throws {
        let session = global.session()
        let devices = try session.read { try $0.captureDevices() }
        if json {
            return try Output.data(
                EntryFormat.json(
                    devices.map {
                        Record(
                            name: $0.name, id: $0.id.uuidString.lowercased(), enrolled: DateOutput.iso($0.enrolled),
                            revoked: $0.revoked.map(DateOutput.iso), takenIn: $0.takenIn, fingerprint: $0.fingerprint)
                    }))
        }
        for device in devices {
            var line = "\(Printable.escaped(device.name))  enrolled \(DateOutput.day(device.enrolled))"
            line += "  \(device.takenIn) taken in  \(device.fingerprint)"
            if let revoked = device.revoked { line += "  revoked \(DateOutput.day(revoked))" }
            Output.data(line)
        }
    }
}

/// `diary capture-key revoke NAME`.
struct CaptureKeyRevoke: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "Revoke a capture device: its captures are refused from now on.",
        discussion: """
            Asks for confirmation on the terminal; elsewhere --yes is required. Captures of the \
            device already taken in stay; any it sends later (or that wait in an inbox) are \
            moved aside to inbox/rejected/ and said. In a vault that syncs, the revocation \
            reaches each other machine at its next sync, which reads it before taking any \
            item in: run `diary sync` there before any other command. The name stays taken.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The device's name (letter case ignored).")
    var name: String

    @Flag(help: "Do not ask.")
    var yes = false

    func run() throws {
        let session = global.session()
        // Revoked first, then the inbox taken in: the device's waiting items are then refused.
        session.takesCaptureInboxInAtOpen = false
        let vault = try session.openVault()
        let key = CaptureDeviceName.key(name)
        guard let device = try vault.captureDevices().first(where: { CaptureDeviceName.key($0.name) == key }) else {
            session.takeInCaptureInbox()
            throw CaptureError.unknownDevice(name)
        }
        let shown = Printable.escaped(device.name)
        try confirmDestructive(
            "revoking capture device \(shown)", question: "Revoke capture device \(shown)?", yes: yes)
        let revoked = try vault.revokeCaptureDevice(named: device.name)
        Output.note(revoked ? "revoked capture device \(shown)" : "\(shown) was revoked already")
        session.takeInCaptureInbox()
    }
}
