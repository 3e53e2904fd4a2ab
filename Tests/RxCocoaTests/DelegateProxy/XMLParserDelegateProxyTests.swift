import Foundation
import RxCocoa
import RxSwift
import XCTest

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A forward delegate that records what it is told.
private final class RecordingXMLDelegate: NSObject, XMLParserDelegate {
    var log: [String] = []

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        log.append("forward <\(elementName)>")
    }

    func parserDidEndDocument(_ parser: XMLParser) {
        log.append("forward end")
    }
}

/// The delegate proxy proved on Foundation's `XMLParser`, a real delegate-based class on Linux.
final class XMLParserDelegateProxyTests: XCTestCase {
    private let document = Data("<weather><city>Seoul</city><city>Busan</city></weather>".utf8)

    func testDidStartElementReportsEveryElementInOrder() {
        let parser = XMLParser(data: document)
        var elements: [String] = []
        let subscription = parser.rx.didStartElement.subscribe(onNext: { elements.append($0) })
        XCTAssertTrue(parser.parse())
        XCTAssertEqual(elements, ["weather", "city", "city"])
        subscription.dispose()
    }

    func testTheDelegateTheParserHadStillGetsEveryCall() {
        let parser = XMLParser(data: document)
        let forward = RecordingXMLDelegate()
        parser.delegate = forward
        var log: [String] = []
        let subscription = parser.rx.didStartElement.subscribe(onNext: { log.append("rx <\($0)>") })
        XCTAssertTrue(parser.delegate === RxXMLParserDelegateProxy.proxy(for: parser))
        XCTAssertTrue(parser.parse())
        XCTAssertEqual(forward.log, ["forward <weather>", "forward <city>", "forward <city>", "forward end"])
        XCTAssertEqual(log, ["rx <weather>", "rx <city>", "rx <city>"])
        subscription.dispose()
    }

    func testSentMessageComesBeforeTheForwardDelegateAndMethodInvokedAfter() {
        let parser = XMLParser(data: Data("<a/>".utf8))
        let forward = RecordingXMLDelegate()
        let proxy = RxXMLParserDelegateProxy.proxy(for: parser)
        let installed = parser.rx.setDelegate(forward)
        let sent = proxy.sentMessage(RxXMLParserDelegateProxy.didStartElement).subscribe(onNext: { _ in
            forward.log.append("sent")
        })
        let invoked = proxy.methodInvoked(RxXMLParserDelegateProxy.didStartElement).subscribe(onNext: { _ in
            forward.log.append("invoked")
        })
        XCTAssertTrue(parser.parse())
        XCTAssertEqual(forward.log, ["sent", "forward <a>", "invoked", "forward end"])
        sent.dispose()
        invoked.dispose()
        installed.dispose()
    }

    func testASecondLookupReturnsTheSameProxy() {
        let parser = XMLParser(data: document)
        let first = RxXMLParserDelegateProxy.proxy(for: parser)
        XCTAssertTrue(first === RxXMLParserDelegateProxy.proxy(for: parser))
        XCTAssertTrue(first === parser.rx.delegate)
        XCTAssertFalse(first === RxXMLParserDelegateProxy.proxy(for: XMLParser(data: document)))
    }

    func testTheProxyIsReleasedWithItsParserAndItsSequencesComplete() {
        weak var weakProxy: RxXMLParserDelegateProxy?
        var events: [String] = []
        var subscription: Disposable?
        do {
            let parser = XMLParser(data: document)
            weakProxy = RxXMLParserDelegateProxy.proxy(for: parser)
            subscription = parser.rx.didStartElement.subscribe(
                onNext: { events.append($0) }, onCompleted: { events.append("completed") })
            XCTAssertTrue(parser.parse())
        }
        // The table notices the parser is gone when next used, or on its sweep of the main queue.
        let deadline = Date().addingTimeInterval(2)
        while weakProxy != nil && Date() < deadline {
            RunLoop.current.run(until: Date().addingTimeInterval(0.01))
        }
        XCTAssertNil(weakProxy)
        XCTAssertEqual(events, ["weather", "city", "city", "completed"])
        subscription?.dispose()
    }
}
