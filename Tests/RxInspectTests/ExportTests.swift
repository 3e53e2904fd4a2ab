import Foundation
import RxInspect
import RxSwift
import RxTest
import Testing

extension InspectorSuites {
    @Suite struct Export {
        /// A chain recorded and exported for `framework` must reproduce `file`, byte for byte: a checked-in
        /// test of this target (`Exported/`), which runs in the same suite. A mismatch is written to
        /// `/tmp/<file>` to compare.
        @Test(arguments: [
            (ExportedTestFramework.swiftTesting, "ExportedDoublingTests.swift"),
            (ExportedTestFramework.xctest, "ExportedDoublingXCTests.swift"),
        ])
        func aRecordedChainExportsToTheCheckedInTest(framework: ExportedTestFramework, file: String) throws {
            try withVirtualInspector { scheduler, inspector in
                let source = scheduler.createHotObservable([
                    .next(150, 0), .next(210, 1), .next(230, 2), .next(240, 3), .completed(260),
                ])
                _ = scheduler.start { source.inspect("a").map { $0 * 2 }.inspect("b") }
                let exported = inspector.export(
                    inputs: ["a"], output: "b", chain: "a.map { $0 * 2 }", testName: "exportedDoubling",
                    framework: framework)
                let golden = try String(
                    contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                        .appendingPathComponent("Exported/\(file)"),
                    encoding: .utf8)
                if exported != golden {
                    try exported.write(toFile: "/tmp/\(file)", atomically: true, encoding: .utf8)
                }
                #expect(exported == golden)
            }
        }

        @Test func anXCTestExportThatMarblesCannotSayComparesTheRecords() {
            withVirtualInspector { scheduler, inspector in
                let source = scheduler.createHotObservable([.next(210, 1), .next(210, 2), .next(220, 3)])
                _ = scheduler.start { source.inspect("a").inspect("b") }
                let exported = inspector.export(
                    inputs: ["a"], output: "b", chain: "a", testName: "groups", framework: .xctest)
                #expect(exported.contains("import XCTest\n"))
                #expect(exported.contains("final class GroupsTests: RxLeakCheckingTestCase {\n    func testGroups() {"))
                #expect(
                    exported.contains(
                        "        XCTAssertEqual(\n            res.events,\n            [\n                .next(210, 1),"
                    ))
            }
        }

        @Test func stringValuesAreQuotedAndEscaped() {
            withVirtualInspector { scheduler, inspector in
                let source = scheduler.createHotObservable([.next(210, "x\"y"), .next(215, "z")])
                _ = scheduler.start { source.inspect("a").inspect("b") }
                let exported = inspector.export(inputs: ["a"], output: "b", chain: "a")
                #expect(exported.contains(#"        .next(210, "x\"y"),"#))
                #expect(exported.contains(#"        .next(210, "z"),"#))
                // Two events in one frame (215 is drawn at the frame of 210) are a group.
                #expect(exported.contains(#"    expectMarbles(res, "^(ab)", values: ["a": "x\"y", "b": "z"])"#))
            }
        }

        @Test func anOutputMarblesCannotSayExactlyIsExpectedAsRecordsAndErrorsAreRxTestErrors() {
            withVirtualInspector { scheduler, inspector in
                let source = scheduler.createHotObservable([
                    .next(210, 1), .next(210, 2), .next(220, 3), .error(230, RxTestError("boom")),
                ])
                _ = scheduler.start { source.inspect("a").inspect("b") }
                let exported = inspector.export(inputs: ["a"], output: "b", chain: "a")
                #expect(exported.contains(#"        .error(230, RxTestError("boom")),"#))
                // `(ab)` at 210 takes the frames up to 240: 3 at 220 cannot be drawn.
                #expect(exported.contains("        res.events == ["))
                #expect(exported.contains("            .next(220, 3),"))
                #expect(exported.contains(#"            .error(230, RxTestError("boom")),"#))
            }
        }

        /// A file for a tool to save: named for the output, its tags made identifiers, the first input
        /// read by the chain; with no input, the output replays itself.
        @Test func anExportFileNamesItsTagsAsIdentifiers() {
            withVirtualInspector { scheduler, inspector in
                let source = scheduler.createHotObservable([.next(210, 1), .completed(220)])
                _ = scheduler.start { source.inspect("a in").map { $0 }.inspect("1 out") }
                let file = inspector.exportFile(inputs: ["a in"], output: "1 out")
                #expect(file.name == "Exported__1_out.swift")
                #expect(file.contents.contains("// Exported by RxInspect: inputs a in, output 1 out.\n"))
                #expect(file.contents.contains("@Test(.leakChecked) func exported__1_out() {"))
                #expect(
                    file.contents.contains("    let a_in = scheduler.createHotObservable([\n        .next(210, 1),"))
                #expect(file.contents.contains("    let res = scheduler.start { a_in }"))
                let replay = inspector.exportFile(inputs: [], output: "1 out", framework: .xctest)
                #expect(replay.name == "Exported__1_out_XCTest.swift")
                #expect(replay.contents.contains("    let _1_out = scheduler.createHotObservable(["))
                #expect(replay.contents.contains("final class Exported__1_outTests: RxLeakCheckingTestCase {"))
                #expect(Inspector.exportIdentifier("a-b.c") == "a_b_c")
            }
        }
    }
}
