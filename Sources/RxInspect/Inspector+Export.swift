/// The test framework an exported test is written for.
public enum ExportedTestFramework: Sendable, Equatable {
    /// A Swift Testing `@Test(.leakChecked)` function, checked with `expectMarbles` / `#expect`.
    case swiftTesting
    /// An `RxLeakCheckingTestCase` subclass (RxTest's XCTest case that checks for leaked
    /// subscriptions) with one test method, checked with `XCTAssertMarbles` / `XCTAssertEqual`: the
    /// form most RxSwift test suites are written in.
    case xctest
}

/// An exported test as a file: the name to save it under and its Swift source.
public struct ExportedTestFile: Sendable, Equatable {
    /// The file's name, `Exported_<output>.swift` (or `Exported_<output>_XCTest.swift`).
    public let name: String
    /// The test's Swift source.
    public let contents: String
}

extension Inspector {
    /// A test file that replays what was recorded: each input tag becomes a hot observable in
    /// virtual time (`scheduler.createHotObservable([.next(210, 1), …])`), `chain` (Swift source that
    /// names the inputs, e.g. `"a.map { $0 * 2 }"`) is run with `scheduler.start { … }`, and the output
    /// tag's events are the expected marbles.
    ///
    /// Times are counted from the output's first subscription, which becomes virtual time 200 (where
    /// `start` subscribes); `frame` clock units become one marble frame of 10 ticks. Each input's and
    /// the output's first subscription in the window are used.
    ///
    /// Values are written as Swift literals: an observable whose every value reads as an `Int` gets
    /// integer literals, any other gets string literals of the values' `String(describing:)` (right for
    /// `String` elements; for other types, edit the file, or map them to strings before the tag). An
    /// error becomes `RxTestError("<its description>")`. Input tags must be Swift identifiers.
    /// Where marbles cannot say the output exactly (events between frames, a group overlapping the
    /// next event), the expectation is the list of recorded events instead.
    ///
    /// For a chain with no side effects the file compiles against RxTest and passes. `framework` chooses
    /// Swift Testing (a function named `testName`) or XCTest (a class named after `testName` with
    /// `Tests` added, whose method is `test` and `testName`).
    public func export(
        inputs: [String], output: String, chain: String, testName: String = "exportedRecording", frame: Int = 10,
        framework: ExportedTestFramework = .swiftTesting
    ) -> String {
        export(
            inputs: inputs.map { (tag: $0, name: $0) }, output: output, chain: chain, testName: testName, frame: frame,
            framework: framework)
    }

    /// A test file of the recording of `output`, named for it, for a tool that saves it (the inspector
    /// view's `e` and `E` keys): the inputs are `inputs`, tags of any spelling, each declared in the
    /// file under its ``exportIdentifier(_:)``, and the chain reads the first input (to be edited into
    /// the real chain); with no input, the output is its own input (a test that replays the lane and
    /// expects it unchanged). The file is `Exported_<output>.swift` for Swift Testing,
    /// `Exported_<output>_XCTest.swift` for XCTest, its test `exported_<output>` (as identifiers).
    public func exportFile(
        inputs: [String], output: String, frame: Int = 10, framework: ExportedTestFramework = .swiftTesting
    ) -> ExportedTestFile {
        let tags = inputs.isEmpty ? [output] : inputs
        let named = tags.map { (tag: $0, name: Self.exportIdentifier($0)) }
        let outputName = Self.exportIdentifier(output)
        let contents = export(
            inputs: named, output: output, chain: named[0].name, testName: "exported_\(outputName)", frame: frame,
            framework: framework)
        let suffix = framework == .xctest ? "_XCTest" : ""
        return ExportedTestFile(name: "Exported_\(outputName)\(suffix).swift", contents: contents)
    }

    /// A tag as a Swift identifier: letters, digits and underscores, other characters made underscores,
    /// and an underscore before a leading digit.
    public static func exportIdentifier(_ tag: String) -> String {
        let mapped = String(tag.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
        guard let first = mapped.first, !first.isNumber else { return "_" + mapped }
        return mapped
    }

    /// The export of ``export(inputs:output:chain:testName:frame:framework:)``, each input's recording
    /// read from its tag and declared under its name.
    private func export(
        inputs: [(tag: String, name: String)], output: String, chain: String, testName: String, frame: Int,
        framework: ExportedTestFramework
    ) -> String {
        let outputEvents = MarbleRenderer(events: events(of: output), subscription: nil).events
        let zero = outputEvents.first { $0.kind == .subscribe }?.time ?? outputEvents.first?.time ?? 0
        func virtual(_ time: Int) -> Int {
            let frames = (time - zero) >= 0 ? (time - zero) / frame : -((zero - time + frame - 1) / frame)
            return 200 + frames * 10
        }

        let xctest = framework == .xctest
        // The test's body, indented by one level; the framework's wrapping is added at the end.
        var lines: [String] = ["    let scheduler = TestScheduler(initialClock: 0)"]
        for input in inputs {
            let recorded = MarbleRenderer(events: events(of: input.tag), subscription: nil).events.filter {
                $0.kind == .next || $0.kind == .error || $0.kind == .completed
            }
            let literal = Literal(values: recorded.compactMap { $0.kind == .next ? $0.value : nil })
            lines.append("    let \(input.name) = scheduler.createHotObservable([")
            for event in recorded {
                lines.append("        \(Self.record(event, at: virtual(event.time), literal: literal)),")
            }
            lines.append("    ])")
        }
        lines.append("    let res = scheduler.start { \(chain) }")

        let virtualOutput = outputEvents.map {
            InspectedEvent($0.kind, $0.value, time: virtual($0.time), subscription: $0.subscription, thread: $0.thread)
        }
        let rendered = MarbleRenderer(events: virtualOutput, subscription: nil).render(
            origin: 200 - 10 * ((200 - (virtualOutput.map(\.time).min() ?? 200) + 9) / 10), frame: 10, anchored: true)
        let literal = Literal(values: rendered.keys.map(\.value))
        let error = outputEvents.first { $0.kind == .error }.map {
            ", error: RxTestError(\(Literal.quoted($0.value ?? "")))"
        }
        if rendered.isExact {
            let values = rendered.keys.map { "\(Literal.quoted($0.key)): \(literal.text($0.value))" }
            let table = values.isEmpty ? "" : ", values: [\(values.joined(separator: ", "))]"
            let assertion = xctest ? "XCTAssertMarbles" : "expectMarbles"
            lines.append("    \(assertion)(res, \(Literal.quoted(rendered.diagram))\(table)\(error ?? ""))")
        } else {
            let recorded = virtualOutput.filter { $0.kind == .next || $0.kind == .error || $0.kind == .completed }
            let records = recorded.map { "            \(Self.record($0, at: $0.time, literal: literal))," }
            if xctest {
                lines += ["    XCTAssertEqual(", "        res.events,", "        ["] + records + ["        ])"]
            } else {
                lines += ["    #expect(", "        res.events == ["] + records + ["        ])"]
            }
        }
        let header = [
            "// Exported by RxInspect: inputs \(inputs.map(\.tag).joined(separator: ", ")), output \(output).",
            "import RxSwift",
            "import RxTest",
            xctest ? "import XCTest" : "import Testing",
            "",
        ]
        let test: [String]
        if xctest {
            let name = testName.prefix(1).uppercased() + testName.dropFirst()
            test =
                ["final class \(name)Tests: RxLeakCheckingTestCase {", "    func test\(name)() {"]
                + lines.map { "    " + $0 } + ["    }", "}"]
        } else {
            // Leak-checked: RxTest's trait also keeps it from overlapping other leak-checked tests.
            test = ["@Test(.leakChecked) func \(testName)() {"] + lines + ["}"]
        }
        return (header + test).joined(separator: "\n") + "\n"
    }

    private static func record(_ event: InspectedEvent, at time: Int, literal: Literal) -> String {
        switch event.kind {
        case .next: return ".next(\(time), \(literal.text(event.value ?? "")))"
        case .error: return ".error(\(time), RxTestError(\(Literal.quoted(event.value ?? ""))))"
        default: return ".completed(\(time))"
        }
    }
}

/// How an observable's values are written: all integer literals, or all string literals.
private struct Literal {
    let integers: Bool

    init(values: [String]) {
        integers = values.allSatisfy { Int($0) != nil }
    }

    func text(_ value: String) -> String {
        integers ? value : Self.quoted(value)
    }

    static func quoted(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            default:
                if scalar.value < 0x20 {
                    escaped += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return "\"\(escaped)\""
    }
}
