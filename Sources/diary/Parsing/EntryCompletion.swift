import ArgumentParser
import DiaryAgent
import DiaryApp
import DiaryVault
import Foundation

/// Shell completion of entry ids, tags and template names, from the vault of the unlocked session.
///
/// The completion scripts call `diary ---completion ...` on each TAB; ArgumentParser then runs
/// these closures with the words of the command line. They only ever ask the running agent for
/// the key: never a passphrase file (an Argon2id derivation per TAB) and never a prompt (the
/// shell owns the terminal). A locked vault, a missing one, an agent that does not answer at
/// once: no candidates and no message, as the shell expects.
///
/// Only ids, tags and template names are printed, all already visible to anyone who may list the vault.
enum EntryCompletion {
    /// Short ids (as `list` shows them, longer where two share 8 digits), newest first.
    static let ids = CompletionKind.custom { words, _, prefix in
        idCandidates(summaries(words), prefix: prefix)
    }

    /// Tag names in use, sorted; `#` kept when typed.
    static let tags = CompletionKind.custom { words, _, prefix in
        tagCandidates(summaries(words), prefix: prefix)
    }

    /// `tag ID +TAG -TAG`: each tag in use with the sign typed (`+` when none).
    static let tagChanges = CompletionKind.custom { words, _, prefix in
        let sign = prefix.hasPrefix("-") ? "-" : "+"
        let bare = prefix.first == "-" || prefix.first == "+" ? String(prefix.dropFirst()) : prefix
        return tagCandidates(summaries(words), prefix: bare).map { sign + $0 }
    }

    /// Template names, sorted as `template list` sorts them; letter case ignored in what was
    /// typed (`new --template`, `template show|edit|remove`).
    static let templates = CompletionKind.custom { words, _, prefix in
        templateCandidates((try? openVault(words)?.templates().map(\.name)) ?? [], prefix: prefix)
    }

    /// How long the agent may take to answer a TAB.
    static let agentTimeout: TimeInterval = 0.5

    static func idCandidates(_ summaries: [EntrySummary], prefix: String) -> [String] {
        let typed = prefix.lowercased()
        let ids = summaries.map { EntryFormat.fullID($0.id) }
        // An id's shortest prefix of at least 8 digits that no other id shares: its neighbours
        // in sorted order share the longest prefixes with it.
        let sorted = ids.sorted()
        var length: [String: Int] = [:]
        for (i, id) in sorted.enumerated() {
            var shared = 0
            for other in [i > 0 ? sorted[i - 1] : nil, i + 1 < sorted.count ? sorted[i + 1] : nil].compactMap({ $0 }) {
                shared = max(shared, zip(id, other).prefix { $0 == $1 }.count)
            }
            length[id] = max(8, shared + 1)
        }
        return ids.compactMap { id in
            let short = String(id.prefix(length[id] ?? 8))
            if short.hasPrefix(typed) { return short }
            return id.hasPrefix(typed) ? id : nil
        }
    }

    static func tagCandidates(_ summaries: [EntrySummary], prefix: String) -> [String] {
        let hash = prefix.hasPrefix("#") ? "#" : ""
        let typed = Tags.clean(prefix).lowercased()
        let names = Set(summaries.flatMap(\.tags)).filter { $0.lowercased().hasPrefix(typed) }
        return names.sorted().map { hash + $0 }
    }

    static func templateCandidates(_ names: [String], prefix: String) -> [String] {
        names.filter { TemplateName.key($0).hasPrefix(TemplateName.key(prefix)) }
    }

    /// The entries of the vault the command line names, when its agent holds the key; else none.
    static func summaries(_ words: [String]) -> [EntrySummary] {
        (try? openVault(words)?.list()) ?? []
    }

    /// The vault the command line names, when its agent holds the key; else nil.
    private static func openVault(_ words: [String]) -> Vault? {
        guard let options = try? GlobalOptions.parse(vaultOption(in: words).map { ["--vault", $0] } ?? []),
            let sealed = try? SealedVault(at: options.vaultURL),
            let socket = try? UnlockAgent(environment: DiaryEnvironment()).socketURL(for: sealed.info.id),
            let held = try? AgentClient(socketURL: socket, timeout: agentTimeout).fetchKey(),
            held.vaultID == sealed.info.id,
            let vault = try? sealed.open(vaultKey: held.key, keyGeneration: held.generation)
        else { return nil }
        return vault
    }

    /// The last `--vault` value among the shell words, its quotes and backslashes undone (the
    /// words come as typed: `"~/my diary"`, `~/my\ diary`).
    static func vaultOption(in words: [String]) -> String? {
        var found: String?
        for (i, word) in words.enumerated() {
            if word == "--vault", i + 1 < words.count {
                found = words[i + 1]
            } else if word.hasPrefix("--vault=") {
                found = String(word.dropFirst("--vault=".count))
            }
        }
        return found.map(unquoted)
    }

    private static func unquoted(_ word: String) -> String {
        var out = ""
        var quote: Character?
        var escaped = false
        for c in word {
            if escaped {
                out.append(c)
                escaped = false
            } else if c == "\\" && quote != "'" {
                escaped = true
            } else if let q = quote {
                if c == q { quote = nil } else { out.append(c) }
            } else if c == "'" || c == "\"" {
                quote = c
            } else {
                out.append(c)
            }
        }
        return out
    }
}
