import Foundation

/// Writes a `DiaryConfig` as TOML, in one canonical layout: the scalar settings in
/// `ConfigKey` order, then `[unlock]`, `[date]` and `[journals]`, each string in basic quotes.
///
/// TOMLKit (toml++) does not keep comments, so the file is always rewritten whole from the
/// settings; what `ConfigParser` reads back from it is the same `DiaryConfig`.
enum ConfigWriter {
    static let heading = "# diary's settings: `diary config` and `diary journal` rewrite this file (docs/GUIDE.md)."

    static func render(_ config: DiaryConfig) -> String {
        var lines = [heading]
        for key in ConfigKey.allCases where key.path.count == 1 {
            if let value = config[key] { lines.append("\(key.rawValue) = \(quoted(value))") }
        }
        for table in ["unlock", "date"] {
            let keys = ConfigKey.allCases.filter { $0.path.count == 2 && $0.path[0] == table && config[$0] != nil }
            guard !keys.isEmpty else { continue }
            lines += ["", "[\(table)]"]
            for key in keys { lines.append("\(key.path[1]) = \(quoted(config[key]!))") }
        }
        if !config.journals.isEmpty {
            lines += ["", "[journals]"]
            for name in config.journalNames { lines.append("\(name) = \(quoted(config.journals[name]!))") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A TOML basic string: `"`, `\` and control characters escaped.
    static func quoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.properties.generalCategory == .control {
                    out += String(format: "\\u%04X", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
