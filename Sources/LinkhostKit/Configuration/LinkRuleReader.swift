import LinkRules
import OrderedJSON

/// Reads a site's `links` array into link rules, checking each against the site's app and
/// languages, and that its examples route to it.
struct LinkRuleReader {
    let problems: ConfigurationProblems
    /// The site's languages; `nil` when they could not be read (that is reported), so texts are not
    /// checked against a list that is not the site's.
    let languages: [String]?
    /// The app's scheme; `nil` when it is missing or unusable (reported with the app), so app URLs
    /// are not each reported for not starting with it.
    let scheme: String?

    static let ruleKeys = ["name", "path", "params", "app", "title", "summary", "noun", "examples", "comment", "caseSensitive", "continueOnWeb"]
    static let parameterKeys = ["type", "required", "value", "absent", "secret", "copy", "label"]

    /// The rules that read without problems, each with its index in `links`.
    func readRules(_ value: JSONValue, at path: JSONPath) -> [(rule: LinkRule, index: Int)] {
        guard case .array(let elements) = value else {
            problems.add(
                path, "\"links\" must be an array of rules, found \(value.kindDescription)",
                fix: "write \"links\": [ { \"name\": ..., \"path\": ..., \"app\": ... } ]")
            return []
        }
        var rules: [(rule: LinkRule, index: Int)] = []
        var names: [String: Int] = [:]
        for (index, element) in elements.enumerated() {
            let rulePath = path.appending(index)
            guard let rule = readRule(element, at: rulePath) else { continue }
            if let earlier = names[rule.name] {
                problems.add(
                    rulePath.appending("name"), "the rule name \"\(rule.name)\" is also used by links[\(earlier)]",
                    fix: "give every rule its own name; names appear in the log and statistics")
                continue
            }
            names[rule.name] = index
            rules.append((rule, index))
        }
        return rules
    }

    /// Site-wide pass-through parameters: `{"noseen": {"type": "flag"}}`.
    func readPassThrough(_ value: JSONValue, at path: JSONPath) -> [LinkParameter] {
        guard case .object(let members) = value else {
            problems.add(
                path, "\"passThrough\" must be an object of parameter names, found \(value.kindDescription)",
                fix: "write e.g. \"passThrough\": { \"noseen\": { \"type\": \"flag\" } }")
            return []
        }
        var parameters: [LinkParameter] = []
        for member in members where !member.key.hasPrefix("//") {
            let memberPath = path.appending(member.key)
            guard LinkRuleNames.isValidParameterName(member.key) else {
                problems.add(memberPath, "\"\(member.key)\" is not a valid parameter name", fix: "use letters, digits and '_'")
                continue
            }
            guard let reader = ConfigObjectReader(member.value, at: memberPath, problems: problems, what: "a pass-through parameter", allowedKeys: ["type"])
            else { continue }
            let type = readType(reader) ?? .text
            parameters.append(LinkParameter(name: member.key, constraint: .typed(type, required: false)))
        }
        return parameters
    }

    private func readRule(_ value: JSONValue, at path: JSONPath) -> LinkRule? {
        guard let reader = ConfigObjectReader(value, at: path, problems: problems, what: "a link rule", allowedKeys: Self.ruleKeys) else { return nil }
        let before = problems.items.count
        let name = reader.string("name", required: true, fix: "name the rule, e.g. \"addfriend\" (letters, digits, '_', '-')")
        if let name, !LinkRuleNames.isValidRuleName(name) {
            problems.add(path.appending("name"), "\"\(name)\" is not a valid rule name", fix: "start with a letter; use letters, digits, '_' and '-'")
        }
        var template: PathTemplate?
        if let text = reader.string("path", required: true, fix: "give the path, e.g. \"/addfriend\" or \"/familymember/{name}\"") {
            switch PathTemplate.parse(text) {
            case .success(let parsed): template = parsed
            case .failure(let error):
                problems.add(
                    path.appending("path"), "\"\(text)\" is not a usable path: \(error.reason)",
                    fix: "write the path from '/', with {name} for a variable segment, e.g. \"/movie/{name}\"")
            }
        }
        let parameters = readParameters(reader.value("params"), at: path.appending("params"), template: template)
        var appTemplate: AppURLTemplate?
        if let text = reader.string("app", required: true, fix: "give the app URL with placeholders, e.g. \"\(scheme ?? "myapp")://addfriend?code={code}\"") {
            switch AppURLTemplate.parse(text) {
            case .success(let parsed):
                appTemplate = parsed
                checkAppTemplate(parsed, parameters: parameters, at: path.appending("app"))
            case .failure(let error):
                problems.add(path.appending("app"), error.reason, fix: "write \"\(scheme ?? "myapp")://…\" with {placeholders} for parameters")
            }
        }
        let title = readText(reader, "title", required: true, parameters: parameters, at: path)
        let summary = readText(reader, "summary", required: false, parameters: parameters, at: path)
        let noun = readText(reader, "noun", required: false, parameters: [], at: path)
        let comment = reader.string("comment", fix: "write a short description for the AASA component's comment")
        let caseSensitive = reader.bool("caseSensitive", default: true)
        let continueOnWeb = reader.bool("continueOnWeb", default: true)
        let examples = reader.strings("examples", fix: "list links (path and query) this rule serves, e.g. [\"/addfriend?code=TEST123\"]")?.map(\.text) ?? []
        for (index, example) in examples.enumerated() where !example.hasPrefix("/") {
            problems.add(path.appending("examples").appending(index), "\"\(example)\" is not a path", fix: "write the link's path and query, starting with '/'")
        }
        guard problems.items.count == before, let name, let template, let appTemplate, let title else { return nil }
        return LinkRule(
            name: name, path: template, parameters: parameters, appURL: appTemplate, title: title, summary: summary, noun: noun,
            examples: examples, comment: comment, caseSensitive: caseSensitive, continueOnWeb: continueOnWeb
        )
    }

    private func readParameters(_ value: JSONValue?, at path: JSONPath, template: PathTemplate?) -> [LinkParameter] {
        let placeholders = template?.placeholderNames ?? []
        var parameters: [LinkParameter] = []
        let members: [JSONMember]
        switch value {
        case nil: members = []
        case .object(let list)?: members = list
        case let other?:
            problems.add(
                path, "\"params\" must be an object of parameter names, found \(other.kindDescription)",
                fix: "write \"params\": { \"code\": { \"type\": \"inviteCode\" } }")
            return []
        }
        for member in members where !member.key.hasPrefix("//") {
            let memberPath = path.appending(member.key)
            guard LinkRuleNames.isValidParameterName(member.key) else {
                problems.add(memberPath, "\"\(member.key)\" is not a valid parameter name", fix: "use letters, digits and '_'")
                continue
            }
            guard let reader = ConfigObjectReader(member.value, at: memberPath, problems: problems, what: "a parameter", allowedKeys: Self.parameterKeys) else {
                continue
            }
            let location: LinkParameter.Location = placeholders.contains(member.key) ? .path : .query
            let constraint: LinkParameter.Constraint
            if let fixed = reader.string("value", fix: "write the exact value the parameter must have, e.g. \"post\"") {
                if reader.has("type") || reader.has("absent") || reader.has("required") {
                    problems.add(
                        memberPath, "a fixed \"value\" cannot be combined with \"type\", \"absent\" or \"required\"",
                        fix: "keep \"value\" alone: the parameter must then be present with exactly that value")
                }
                if location == .path {
                    problems.add(memberPath, "path placeholders cannot have a fixed value", fix: "write the fixed text into the path itself")
                }
                if fixed.isEmpty {
                    problems.add(memberPath.appending("value"), "the fixed value is empty", fix: "use \"absent\": true for a parameter that must not be given")
                }
                constraint = .fixed(fixed)
            } else if reader.bool("absent", default: false) {
                if location == .path { problems.add(memberPath, "a path placeholder cannot be absent", fix: "remove \"absent\"") }
                constraint = .absent
            } else {
                let type = readType(reader)
                if type == nil && !reader.has("type") {
                    problems.add(
                        memberPath.appending("type"), "the parameter has no \"type\"",
                        fix: "add \"type\": one of \(ParameterType.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                let required = reader.bool("required", default: true)
                if location == .path && !required {
                    problems.add(
                        memberPath.appending("required"), "a path placeholder is always required",
                        fix: "remove \"required\": false, or make it a query parameter")
                }
                constraint = .typed(type ?? .text, required: required)
            }
            let label = readText(reader, "label", required: false, parameters: [], at: memberPath)
            parameters.append(
                LinkParameter(
                    name: member.key, location: location, constraint: constraint,
                    isSecret: reader.bool("secret", default: false), isCopyable: reader.bool("copy", default: false), label: label
                ))
        }
        for placeholder in placeholders where !parameters.contains(where: { $0.name == placeholder }) {
            problems.add(
                path.appending(placeholder), "the path's {\(placeholder)} is not declared", fix: "add \"\(placeholder)\": { \"type\": ... } to \"params\"")
        }
        return parameters
    }

    private func readType(_ reader: ConfigObjectReader) -> ParameterType? {
        guard let text = reader.string("type", fix: "use one of \(ParameterType.allCases.map(\.rawValue).joined(separator: ", "))") else { return nil }
        guard let type = ParameterType(rawValue: text) else {
            let suggestion = ConfigObjectReader.closest(to: text, among: ParameterType.allCases.map(\.rawValue)).map { "did you mean \"\($0)\"? " } ?? ""
            problems.add(
                reader.path.appending("type"), "\"\(text)\" is not a parameter type",
                fix: "\(suggestion)use one of \(ParameterType.allCases.map(\.rawValue).joined(separator: ", "))")
            return nil
        }
        return type
    }

    /// A localized text object `{"en": "...", "de": "..."}` (or a plain string, used for every
    /// language), with every site language present and only known placeholders.
    private func readText(_ reader: ConfigObjectReader, _ key: String, required: Bool, parameters: [LinkParameter], at path: JSONPath) -> LocalizedText? {
        let example = languages.map { "{ \($0.map { "\"\($0)\": \"…\"" }.joined(separator: ", ")) }" } ?? "\"…\""
        guard let value = reader.value(key) else {
            if required { problems.add(path.appending(key), "\"\(key)\" is missing", fix: "add \"\(key)\": \(example)") }
            return nil
        }
        let textPath = path.appending(key)
        var texts: [String: String] = [:]
        switch value {
        case .string(let text):
            for language in languages ?? [] { texts[language] = text }
        case .object(let members):
            for member in members where !member.key.hasPrefix("//") {
                guard case .string(let text) = member.value else {
                    problems.add(textPath.appending(member.key), "must be a string, found \(member.value.kindDescription)", fix: "write the text in quotes")
                    continue
                }
                if let languages, !languages.contains(member.key) {
                    problems.add(
                        textPath.appending(member.key), "\"\(member.key)\" is not one of the site's languages (\(languages.joined(separator: ", ")))",
                        fix: "remove it, or add it to the site's \"languages\"")
                }
                texts[member.key] = text
            }
        default:
            problems.add(textPath, "\"\(key)\" must be a string or an object of languages, found \(value.kindDescription)", fix: "write \(example)")
            return nil
        }
        let text = LocalizedText(texts)
        let missing = languages.map(text.missingLanguages) ?? []
        if !missing.isEmpty {
            problems.add(textPath, "no text for \(missing.joined(separator: ", "))", fix: "add \(missing.map { "\"\($0)\": \"…\"" }.joined(separator: ", "))")
        }
        for placeholder in text.placeholders where !parameters.contains(where: { $0.name == placeholder }) {
            let fix =
                parameters.isEmpty
                ? "remove {\(placeholder)}: there is no parameter it could show here"
                : "use one of the rule's parameters: \(parameters.map { "{\($0.name)}" }.joined(separator: ", "))"
            problems.add(textPath, "{\(placeholder)} is not a parameter of this rule", fix: fix)
        }
        return text
    }

    private func checkAppTemplate(_ template: AppURLTemplate, parameters: [LinkParameter], at path: JSONPath) {
        if let scheme, template.scheme != scheme {
            problems.add(path, "the app URL's scheme \"\(template.scheme)\" is not the app's scheme \"\(scheme)\"", fix: "start it with \"\(scheme)://\"")
        }
        for placeholder in template.placeholders {
            guard let parameter = parameters.first(where: { $0.name == placeholder }) else {
                problems.add(path, "{\(placeholder)} is not a parameter of this rule", fix: "declare it under \"params\" or remove it")
                continue
            }
            if template.requiredPlaceholders.contains(placeholder), !parameter.isRequired {
                problems.add(
                    path, "{\(placeholder)} sits before the query but the parameter is optional",
                    fix: "make the parameter required, or move it into the query (\"?\(placeholder)={\(placeholder)}\") where it is left out when absent")
            }
        }
    }
}
