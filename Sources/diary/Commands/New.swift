import ArgumentParser
import DiaryApp
import DiaryVault
import Foundation

/// `diary new`: write an entry.
struct New: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Write a new entry.",
        usage: "diary new [<options>] [<text> ...]",
        discussion: """
            The text comes from the arguments (words joined by spaces, as jrnl takes them: \
            `diary new Saw a heron`); else from stdin when stdin is not a terminal; else \
            from your editor ($DIARY_EDITOR, the config's editor, $VISUAL, $EDITOR, else vi). --edit always opens the editor, \
            starting from the argument's text if there is one. The first line that is not \
            blank is the title. Tags written in the text as #word or @word (after a space or at the start of a \
            line; '# Title' is a heading, not a tag) are added to the entry's tags.

            As in jrnl, text given as arguments may open with its date and a colon: \
            `diary new "yesterday 9pm: Saw a heron"` is dated yesterday at 9 pm. Only without \
            --date, and only when all before the first ': ' is a date --date accepts (`Note to \
            self: buy milk` stays as typed).

            DATES (--date here; --from, --to and --on of list, search and export): \
            2024-02-22, 2024-02-22T15:00, 2024-02-22T15:00+09:00 (ISO 8601); now, today, \
            yesterday, tomorrow; 3 days ago, 2 weeks ago, 5 hours ago; friday (the most \
            recent), last friday; Feb 22, 22 Feb, February 22 2023; a day may end in a time: \
            yesterday 9pm, friday 14:30; or a date as `diary list` prints it. Days are \
            Gregorian, before 1582 too.

            PRIVACY: text given as an argument is not private. While diary runs, any user of \
            this machine can read it in /proc/PID/cmdline (`ps` shows it), and your shell keeps \
            it in its history file. For anything personal, use the editor (`diary new`) or \
            stdin (`diary new < file`).

            Prints the new entry's full id alone on stdout; when stderr is a terminal, also says \
            there what was added (short id and title). Empty text as an argument or on stdin \
            stores nothing and exits with status 1. An entry left empty in the editor (vim's \
            :q!) is your choice: nothing is stored, stderr says so, and the status is 0. An \
            editor that fails (exits non-zero, as vim's :cq does) stores nothing: status 1. \
            Text that is not UTF-8 or larger than 8 MiB is refused (status 67).

            If the text cannot be stored (a full disk, or any other reason), diary exits with \
            an error status, keeps the text in memory with its date, tags and star, and says \
            where: `diary recover` stores it once the cause is fixed. So is text from the \
            editor, from stdin and from the arguments (except when an attached file is \
            refused: see ATTACHMENTS).

            TEMPLATES: --template NAME always opens the editor on the template's text with its \
            placeholders filled in ({date}, {time} and {weekday} are the entry's date; {prompt} \
            a prompt from its list; see `diary template --help`). Saved unchanged or left \
            empty, nothing is stored (status 0). Text arguments are refused with it. The \
            config's `template` (`diary config set template NAME`) is used the same way when \
            no text is given and the editor would open anyway (a terminal, or --edit).

            ATTACHMENTS: --attach FILE (repeatable) adds files to the new entry, sealed with it \
            in one change: if a file is refused (missing, a directory or FIFO, changed while \
            read, a broken JPEG), nothing is stored, the entry neither, and text given as \
            arguments or on stdin is not kept for `diary recover` (run the command again); \
            text written in the editor is kept. A JPEG's photo metadata \
            (EXIF with its GPS position, XMP, IPTC, comments) is removed unless \
            --keep-metadata; --no-dedup stores each file on its own (see `diary attach --help`).

            Text that starts with '-' goes after `--` (`diary new -- it was -5 degrees`). A \
            date of several words is quoted: `--date 'yesterday 9pm'` (diary warns when the \
            text's first words would have made --date another date). An empty --tag is refused.

            EXAMPLE
              diary new --tag walks --star
              diary new --date yesterday < notes.txt
              diary new --template evening
              fortune | diary new
              diary new --attach heron.jpg "Saw a heron"
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The entry's text, in words or quoted (else stdin or the editor).")
    var words: [String] = []

    /// The text and date the words give (`NewTextArguments`: joined, maybe dated as jrnl does).
    private var typed: NewTextArguments { NewTextArguments(words: words, date: dateOption) }
    var text: String? { typed.text }
    var date: DateInput? { typed.date }

    @Flag(help: "Open the editor even when text or stdin is given.")
    var edit = false

    @Option(
        name: .customLong("date"),
        help: ArgumentHelp(
            "The entry's date: 2024-02-22, 2024-02-22T15:00, yesterday 9pm, 2 days ago, last monday, Feb 22; default now. A date without a time is that calendar day in every time zone.",
            valueName: "date"),
        completion: DateInput.completion, transform: DateInput.argument)
    var dateOption: DateInput?

    @Option(
        name: .customLong("tag"), help: ArgumentHelp("Tag the entry (repeatable).", valueName: "tag"),
        completion: EntryCompletion.tags)
    var tags: [String] = []

    @Flag(help: "Star the entry.")
    var star = false

    @Option(
        name: .customLong("template"),
        help: ArgumentHelp("Start in the editor from this template (`diary template list`).", valueName: "name"),
        completion: EntryCompletion.templates)
    var templateOption: String?

    @Option(
        name: .customLong("attach"), help: ArgumentHelp("Attach a file (repeatable).", valueName: "file"),
        completion: .file())
    var attachments: [String] = []

    @OptionGroup var attachFlags: AttachFlags

    func validate() throws {
        for tag in tags { try Tags.validate(tag) }
        try Self.refuseEmptyTags(tags)
        if templateOption != nil, !words.isEmpty {
            throw ValidationError("--template opens the editor; give no text with it")
        }
        if attachments.isEmpty && (attachFlags.keepMetadata || attachFlags.noDedup) {
            let flag = attachFlags.keepMetadata ? "--keep-metadata" : "--no-dedup"
            throw ValidationError("\(flag) applies to the files of --attach; give --attach FILE with it")
        }
    }

    func run() throws {
        warnOfDateInText()
        // Open first: a locked vault must fail before the user has written anything.
        let vault = try global.session().openVault()
        // Every file opened and checked before the editor: a missing one fails before the
        // user writes anything.
        let files =
            attachments.isEmpty
            ? nil
            : try PreparedAttachments(
                RawArguments.bytes(of: attachments).map { FileToAttach(pathBytes: $0) }, options: attachFlags.options)
        let entry: Entry
        // The config's template only where the editor would open on an empty text anyway: text
        // given or piped in is stored as it is.
        let configured = text == nil && (edit || TTY.stdinIsTerminal) ? Settings.current.defaultTemplate : nil
        if let name = Self.chosenTemplate(option: templateOption, configured: configured) {
            guard let stored = try newFromTemplate(named: name, in: vault, attaching: files) else { return }
            entry = stored
        } else if edit || (text == nil && TTY.stdinIsTerminal) {
            let intent = EditIntent.newEntry(
                date: date?.start ?? Date(), dateIsDay: date?.isDay ?? false, tags: tags, starred: star)
            let stored = try Editor.edit(
                text ?? "", limit: Vault.maximumTextBytes, owner: .init(vault: vault.id, entry: nil), intent: intent
            ) { body in
                // Left empty (vim's `:q!`): the user's choice, not a failure.
                EntryText.isBlank(body) ? nil : try store(body, in: vault, attaching: files)
            }
            guard let stored else {
                Output.note("the entry was left empty; nothing was stored")
                return
            }
            entry = stored
        } else {
            let body = try text ?? StdinText.read(limit: Vault.maximumTextBytes)
            try TextInput.check(body, limit: Vault.maximumTextBytes)
            entry = try storeOrKeep(body, in: vault, attaching: files)
        }
        if let files { AttachFlags.report(files) }
        Output.data(EntryFormat.fullID(entry.id))
        // A person at a terminal is told what was stored; a script reads the id on stdout and
        // gets a quiet stderr.
        if isatty(STDERR_FILENO) == 1 {
            let title = Self.shortened(EntryFormat.displayTitle(entry.title))
            Output.note("diary: added \(EntryFormat.shortID(entry.id)) \"\(title)\"")
        }
    }

    /// Stores `body` as the new entry, with the options' date, star and tags and the tags
    /// written in it.
    /// With `files`, the entry and the files are stored in one change, or none of them.
    func store(_ body: String, in vault: Vault, attaching files: PreparedAttachments? = nil) throws -> Entry {
        try TextInput.check(body, limit: Vault.maximumTextBytes)
        let tags = InlineTags.forNewEntry(given: tags, text: body)
        guard let files else {
            return try vault.add(
                text: body, date: date?.start, dateIsDay: date?.isDay ?? false, starred: star, tags: tags)
        }
        return try vault.add(
            text: body, date: date?.start, dateIsDay: date?.isDay ?? false, starred: star, tags: tags,
            attachments: files.inputs)
    }

    /// Stores text given on stdin or as arguments; when that fails (a full disk, any reason),
    /// keeps it in memory for `diary recover` as an editor's text is kept (`TextKept`). Piped
    /// text exists nowhere else.
    ///
    /// Not when an attached file was refused: the command is run again once the file is
    /// fixed, with the same arguments or input, and a kept text would only warn on every
    /// command until discarded.
    private func storeOrKeep(_ body: String, in vault: Vault, attaching files: PreparedAttachments?) throws -> Entry {
        do {
            return try store(body, in: vault, attaching: files)
        } catch let refused where Self.isFileRefusal(refused) {
            throw refused
        } catch {
            let intent = EditIntent.newEntry(
                date: date?.start ?? Date(), dateIsDay: date?.isDay ?? false, tags: tags, starred: star)
            do {
                let path = try InterruptedEdits.keep(body, owner: .init(vault: vault.id, entry: nil), intent: intent)
                throw TextKept(error: error, path: path)
            } catch let kept as TextKept {
                throw kept
            } catch let notKept {
                Output.warning(
                    "the text was not stored, and could not be kept for `diary recover`: "
                        + (ErrorReport(notKept)?.message ?? "\(notKept)"))
                throw error
            }
        }
    }

    /// An attached file refused while it was read (changed, broken JPEG, empty, too large).
    static func isFileRefusal(_ error: Error) -> Bool {
        switch error {
        case is AttachmentFileError, AttachmentError.empty, AttachmentError.tooLarge: return true
        default: return false
        }
    }

    /// `--tag ""` (or `--tag '#'`) names no tag: refused rather than dropped without a word.
    static func refuseEmptyTags(_ tags: [String]) throws {
        if tags.contains(where: { Tags.clean($0).isEmpty }) {
            throw ValidationError("--tag needs a name; an empty tag cannot be stored")
        }
    }

    /// `diary new --date yesterday 9pm Saw a heron`: the shell gave --date `yesterday` alone,
    /// and `9pm` became the text's first word. What is stored stays as typed; stderr says how
    /// the date was read and how to quote it.
    private func warnOfDateInText() {
        guard let raw = Self.dateText(in: CommandLine.arguments),
            let longer = Self.longerDate(raw, words: words)
        else { return }
        Output.warning("the date was taken as '\(raw)'; the text starts with '\(longer.dropFirst(raw.count + 1))'")
        Output.hint("for the date '\(longer)', quote it: diary new --date '\(longer)' …")
    }

    /// The date phrase `date` and the first one or two `words` make together, when that is a
    /// date other than `date` alone.
    static func longerDate(_ date: String, words: [String], now: Date = Date()) -> String? {
        let alone = DateInput.parse(date, now: now, in: DateOutput.context)
        for count in stride(from: min(2, words.count), through: 1, by: -1) {
            let phrase = ([date] + words.prefix(count)).joined(separator: " ")
            if let longer = DateInput.parse(phrase, now: now, in: DateOutput.context), longer != alone {
                return phrase
            }
        }
        return nil
    }

    /// The value of `--date` as typed (`--date X` or `--date=X`), for the warning above.
    static func dateText(in arguments: [String]) -> String? {
        for (i, argument) in arguments.enumerated() {
            if argument == "--" { return nil }
            if argument.hasPrefix("--date=") { return String(argument.dropFirst("--date=".count)) }
            if argument == "--date", i + 1 < arguments.count { return arguments[i + 1] }
        }
        return nil
    }

    /// The hint after `unknown option '-5'` for `new`: text that starts with '-' goes after `--`.
    static func dashTextHint(command: String?, message: String) -> String? {
        guard command == "new", message.hasPrefix("unknown option '-") else { return nil }
        // The message's first line (ArgumentParser appends the usage after it).
        let option = message.prefix { $0 != "\n" }.dropFirst("unknown option ".count)
        return "if \(option) is part of the text, put -- before the text: diary new -- it was -5 degrees"
    }

    /// The title cut to one short line.
    static func shortened(_ title: String, limit: Int = 60) -> String {
        title.count <= limit ? title : String(title.prefix(limit - 1)) + "…"
    }
}
