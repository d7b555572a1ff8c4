import ArgumentParser
import Foundation

/// An option given to a command that does not have it, but that another command does
/// (`diary new --reverse`: list's, show's and export's), or that reads as a filter diary
/// spells otherwise (`diary show --year 2026`: `list --from 2026-01-01 --to 2026-12-31`), where
/// ArgumentParser would guess the nearest spelling among the command's own options (`--raw`).
///
/// Asked only after ArgumentParser refused the command line (main.swift), so the commands'
/// options are read (from ArgumentParser's description of them) only on that path.
struct MisplacedOption: Equatable {
    /// The option as typed, without a value (`--year`).
    let option: String
    /// The command as typed (`show`, `sync join`).
    let command: String
    /// The commands that have the option (`list`, `show`), or none for a filter-like one.
    let owners: [String]
    /// For a filter-like option: the value given after it, if any (`2026`).
    var value: String? = nil

    /// The first long option in `arguments` (a command line after main.swift's
    /// `CommandLineArguments.prepare`: the command first) that the command lacks and others
    /// have; nil when there is none.
    static func find(in arguments: [String], tree: CommandTree = .diary) -> MisplacedOption? {
        var node = tree
        var path: [String] = []
        var rest = arguments[...]
        while let word = rest.first, let child = node.subcommands.first(where: { $0.name == word }) {
            (node, rest) = (child, rest.dropFirst())
            path.append(word)
        }
        // `help` is ArgumentParser's; the root's options (--vault) every command takes.
        guard !path.isEmpty, path != ["help"] else { return nil }
        for word in rest.prefix(while: { $0 != "--" }) where word.hasPrefix("--") && word.count > 2 {
            let name = String(word.dropFirst(2).prefix { $0 != "=" })
            guard !node.options.contains(name), !tree.options.contains(name), !["help", "version"].contains(name)
            else { continue }
            let owners = tree.commands(having: name)
            let command = path.joined(separator: " ")
            if !owners.isEmpty { return MisplacedOption(option: "--" + name, command: command, owners: owners) }
            if filterHints[name] != nil {
                let after = rest.drop { $0 != word }.dropFirst().first
                let value = word.contains("=") ? String(word.drop { $0 != "=" }.dropFirst()) : after
                return MisplacedOption(option: "--" + name, command: command, owners: [], value: value)
            }
        }
        return nil
    }

    /// Filters as other tools spell them (jrnl's `-until`, `--since`, a `--year`), and the way
    /// diary spells each, given the value typed (or a placeholder).
    static let filterHints: [String: @Sendable (String?) -> String] = [
        "year": { year in
            let y = year.flatMap { Int($0) }.map(String.init) ?? "2026"
            return
                "`diary list --from \(y)-01-01 --to \(y)-12-31` lists a year's entries; `diary calendar \(y)` shows it"
        },
        "month": { _ in "`diary list --from 2026-03-01 --to 2026-03-31` lists a month's entries" },
        "day": { day in "`diary list --on \(day ?? "DATE")` lists a day's entries" },
        "date": { day in "`diary list --on \(day ?? "DATE")` lists a day's entries" },
        "since": { day in "`diary list --from \(day ?? "DATE")` lists the entries since a day" },
        "after": { day in "`diary list --from \(day ?? "DATE")` lists the entries since a day" },
        "until": { day in "`diary list --to \(day ?? "DATE")` lists the entries up to a day" },
        "before": { day in "`diary list --to \(day ?? "DATE")` lists the entries up to a day" },
        "contains": { text in "`diary search \(text ?? "TEXT")` finds entries by their text" },
    ]

    var report: ErrorReport {
        let message = "`diary \(command)` has no option \(option)"
        if owners.isEmpty, let hint = Self.filterHints[String(option.dropFirst(2))] {
            return ErrorReport(message: message, hint: hint(value), code: .usage)
        }
        let commands = owners.map { "`diary \($0) \(option)`" }
        let which =
            commands.count <= 3 ? commands.joined(separator: ", ") : commands.prefix(3).joined(separator: ", ") + ", …"
        return ErrorReport(
            message: message,
            hint: "\(option) belongs to \(which); `diary \(command) --help` lists \(command)'s options", code: .usage)
    }
}

/// The commands and the long names of their options, as ArgumentParser describes them.
struct CommandTree: Equatable {
    let name: String
    let options: Set<String>
    let subcommands: [CommandTree]

    /// `diary`'s, from ArgumentParser's description of the commands (`--experimental-dump-help`).
    static var diary: CommandTree {
        let json = try? JSONSerialization.jsonObject(with: Data(Diary._dumpHelp().utf8))
        let root = (json as? [String: Any])?["command"] as? [String: Any] ?? [:]
        return CommandTree(root)
    }

    init(name: String, options: Set<String>, subcommands: [CommandTree]) {
        (self.name, self.options, self.subcommands) = (name, options, subcommands)
    }

    private init(_ info: [String: Any]) {
        name = info["commandName"] as? String ?? ""
        let arguments = info["arguments"] as? [[String: Any]] ?? []
        let names = arguments.flatMap { $0["names"] as? [[String: Any]] ?? [] }
        options = Set(names.filter { $0["kind"] as? String == "long" }.compactMap { $0["name"] as? String })
        subcommands = (info["subcommands"] as? [[String: Any]] ?? []).map(CommandTree.init)
    }

    /// The commands below this one (as typed: `calendar`, `sync join`) that have `--option`.
    func commands(having option: String, prefix: [String] = []) -> [String] {
        subcommands.flatMap { child -> [String] in
            let path = prefix + [child.name]
            let own = child.options.contains(option) ? [path.joined(separator: " ")] : []
            return own + child.commands(having: option, prefix: path)
        }
    }
}
