import Foundation
import RxCocoa
import RxSwift

#if canImport(FoundationXML)
    import FoundationXML
#endif

// A delegate proxy for a real Foundation class with a delegate that exists on Linux, written the way
// RxCocoa's are (the book's CLLocationManager proxy, with the delegate methods it reports spelled out).

extension XMLParser: HasDelegate {
    public typealias Delegate = XMLParserDelegate
}

final class RxXMLParserDelegateProxy: DelegateProxy<XMLParser, XMLParserDelegate>, DelegateProxyType,
    XMLParserDelegate
{
    static let didStartElement: DelegateMethod = "parser(_:didStartElement:namespaceURI:qualifiedName:attributes:)"
    static let didEndDocument: DelegateMethod = "parserDidEndDocument(_:)"

    init(parser: XMLParser) {
        super.init(parentObject: parser, delegateProxy: RxXMLParserDelegateProxy.self)
    }

    static func registerKnownImplementations() {
        register { RxXMLParserDelegateProxy(parser: $0) }
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        forward(Self.didStartElement, [parser, elementName, namespaceURI as Any, qName as Any, attributeDict]) {
            $0.parser(
                parser, didStartElement: elementName, namespaceURI: namespaceURI, qualifiedName: qName,
                attributes: attributeDict)
        }
    }

    func parserDidEndDocument(_ parser: XMLParser) {
        forward(Self.didEndDocument, [parser]) { $0.parserDidEndDocument(parser) }
    }
}

extension Reactive where Base: XMLParser {
    var delegate: DelegateProxy<XMLParser, XMLParserDelegate> {
        RxXMLParserDelegateProxy.proxy(for: base)
    }

    /// The name of every element the parser starts.
    var didStartElement: Observable<String> {
        delegate.methodInvoked(RxXMLParserDelegateProxy.didStartElement).map { $0[1] as! String }
    }

    func setDelegate(_ delegate: XMLParserDelegate) -> Disposable {
        RxXMLParserDelegateProxy.installForwardDelegate(delegate, retainDelegate: false, onProxyForObject: base)
    }
}
