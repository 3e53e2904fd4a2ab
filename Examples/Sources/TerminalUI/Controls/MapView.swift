import RxCocoa
import RxSwift

/// The extent of a map region in degrees, as MapKit's `MKCoordinateSpan`.
public struct CoordinateSpan: Hashable, Sendable {
    /// Degrees of latitude from the top edge to the bottom edge.
    public var latitudeDelta: LocationDegrees
    /// Degrees of longitude from the left edge to the right edge.
    public var longitudeDelta: LocationDegrees

    /// Creates a span.
    public init(latitudeDelta: LocationDegrees, longitudeDelta: LocationDegrees) {
        self.latitudeDelta = latitudeDelta
        self.longitudeDelta = longitudeDelta
    }
}

/// A rectangle of the world: a centre and a span, as MapKit's `MKCoordinateRegion`.
public struct CoordinateRegion: Hashable, Sendable {
    /// The centre.
    public var center: LocationCoordinate2D
    /// The extent around the centre.
    public var span: CoordinateSpan

    /// Creates a region.
    public init(center: LocationCoordinate2D, span: CoordinateSpan) {
        self.center = center
        self.span = span
    }
}

/// Something drawn on a map at a coordinate, as MapKit's `MKOverlay`: the overlay says where, its
/// ``OverlayRenderer`` (which the map's delegate makes) says how.
///
/// Class-bound because the map tells overlays apart by identity (`removeOverlay(_:)`), as MapKit does.
public protocol MapOverlay: AnyObject {
    /// Where the overlay is drawn: its text starts in the cell containing this coordinate.
    var coordinate: LocationCoordinate2D { get }
}

/// A ready-made overlay: a short text (a glyph, an icon, a temperature) in a colour at a coordinate.
/// The default renderer draws it as it is, so markers need no delegate.
public final class MapMarker: MapOverlay {
    /// Where the marker is.
    public let coordinate: LocationCoordinate2D
    /// What is drawn there, from the coordinate's cell rightwards.
    public let text: String
    /// The text's colour (`nil`: the terminal's default).
    public let color: RGB?

    /// Creates a marker.
    public init(coordinate: LocationCoordinate2D, text: String = "•", color: RGB? = nil) {
        self.coordinate = coordinate
        self.text = text
        self.color = color
    }
}

/// Draws one overlay, as MapKit's `MKOverlayRenderer`: its ``text`` in its ``style`` from the overlay's
/// cell. Subclass and override ``draw(at:into:clip:)`` to draw something else.
open class OverlayRenderer {
    /// The overlay drawn.
    public let overlay: MapOverlay
    /// What is drawn.
    public var text: String
    /// How it is drawn.
    public var style: CellStyle

    /// A renderer drawing `text` in `style` at the overlay's cell.
    public init(overlay: MapOverlay, text: String, style: CellStyle) {
        self.overlay = overlay
        self.text = text
        self.style = style
    }

    /// The default renderer, used when no delegate makes one: a ``MapMarker`` is drawn as its text in
    /// its colour, any other overlay as a bold `•`. (MapKit's default `MKOverlayRenderer()` draws
    /// nothing; a marker that disappears without a delegate helps nobody in a terminal.)
    public convenience init(overlay: MapOverlay) {
        let marker = overlay as? MapMarker
        self.init(
            overlay: overlay, text: marker?.text ?? "•",
            style: CellStyle(foreground: marker?.color, attributes: .bold))
    }

    /// Draws the overlay with its first column at `point` (the overlay's cell), clipped to `clip` (the
    /// map's frame).
    open func draw(at point: Point, into grid: inout CellGrid, clip: Rect) {
        grid.draw(text, at: point, style: style, clip: clip)
    }
}

/// What a ``MapView`` tells and asks its delegate, as MapKit's `MKMapViewDelegate`. Every method has
/// a default, as the Objective-C protocol's are optional.
///
/// `@MainActor`, as `MKMapViewDelegate` is in Apple's SDK: the map calls it from the main actor, where
/// it lives, so a view controller conforms without ceremony.
@MainActor
public protocol MapViewDelegate: AnyObject {
    /// The map shows a new region: moved by a key or set from code. `animated` is what the code that
    /// set it passed (keys pass `false`; a terminal does not animate, the flag is only reported).
    func mapView(_ mapView: MapView, regionDidChangeAnimated animated: Bool)

    /// The renderer that draws `overlay`, asked once when the overlay is added. The default is
    /// ``OverlayRenderer/init(overlay:)``.
    func mapView(_ mapView: MapView, rendererFor overlay: MapOverlay) -> OverlayRenderer
}

extension MapViewDelegate {
    /// Does nothing.
    public func mapView(_ mapView: MapView, regionDidChangeAnimated animated: Bool) {}

    /// The default renderer, ``OverlayRenderer/init(overlay:)``.
    public func mapView(_ mapView: MapView, rendererFor overlay: MapOverlay) -> OverlayRenderer {
        OverlayRenderer(overlay: overlay)
    }
}

/// A map of the world (`MKMapView`): land and sea from ``LandMask/world`` in Braille dots (2 × 4 per
/// cell, which makes each dot about square), and overlays at their coordinates.
///
/// The projection is equirectangular: a dot is as many degrees of latitude as of longitude, so the
/// region shown is ``longitudeDelta`` across and as many degrees down as the frame's shape makes it.
/// While focused, the arrow keys pan by a quarter of the region, `+` (or `=`) zooms in and `-` zooms
/// out by a factor of two, and the centre cell shows a reverse-video `+`. Every change of region
/// calls the delegate's `mapView(_:regionDidChangeAnimated:)` (which `rx.regionDidChangeAnimated`
/// reports). A new frame (a resize) keeps the centre and the degrees across, so only the latitude
/// shown follows the frame's shape; it is not reported as a change of region.
@MainActor
open class MapView: Control {
    /// The delegate (held weakly, as UIKit holds delegates); `rx` installs its proxy here.
    public weak var delegate: MapViewDelegate?

    /// The narrowest region across, in degrees: a few cells of the 1/12° land mask per dot would show
    /// nothing new.
    public static let minimumLongitudeDelta: LocationDegrees = 0.5
    /// The widest region across: the whole world.
    public static let maximumLongitudeDelta: LocationDegrees = 360

    /// The colour of land dots.
    public var landColor: RGB {
        didSet { if landColor != oldValue { setNeedsDisplay() } }
    }
    /// The background of the world (`nil`: the terminal's default).
    public var seaColor: RGB? {
        didSet { if seaColor != oldValue { setNeedsDisplay() } }
    }

    /// The overlays, in the order they were added (later ones drawn on top).
    public private(set) var overlays: [MapOverlay] = []

    private var center: LocationCoordinate2D
    private var span: LocationDegrees
    private var renderers: [ObjectIdentifier: OverlayRenderer] = [:]
    private let mask: LandMask

    /// Creates a map showing `region` (fitted to the frame, see ``setRegion(_:animated:)``), drawn from
    /// `mask`.
    public init(
        frame: Rect = Rect(column: 0, row: 0, columns: 0, rows: 0),
        region: CoordinateRegion = CoordinateRegion(
            center: LocationCoordinate2D(), span: CoordinateSpan(latitudeDelta: 180, longitudeDelta: 360)),
        mask: LandMask = .world, landColor: RGB = RGB(hex: 0x6A_B0_4C), seaColor: RGB? = RGB(hex: 0x1D_3B_5C)
    ) {
        self.mask = mask
        self.landColor = landColor
        self.seaColor = seaColor
        self.center = LocationCoordinate2D()
        self.span = Self.maximumLongitudeDelta
        super.init(frame: frame)
        (center, span) = fitted(region)
    }

    // MARK: - The region

    /// The region shown (`MKMapView.region`): the centre, ``longitudeDelta`` across and the latitude
    /// the frame's shape gives. Setting it is ``setRegion(_:animated:)`` without animation.
    public var region: CoordinateRegion {
        get {
            CoordinateRegion(
                center: center, span: CoordinateSpan(latitudeDelta: span / aspectRatio, longitudeDelta: span))
        }
        set { setRegion(newValue, animated: false) }
    }

    /// The centre of the map (`MKMapView.centerCoordinate`); setting it keeps the zoom.
    public var centerCoordinate: LocationCoordinate2D {
        get { center }
        set { setCenter(newValue, animated: false) }
    }

    /// Degrees of longitude across the frame: the zoom.
    public var longitudeDelta: LocationDegrees { span }

    /// Shows `region`, fitted as MapKit fits one: centred on its centre, zoomed out just enough for
    /// the whole span to be visible in the frame's shape (within the zoom limits). A latitude beyond
    /// a pole is clamped, a longitude wrapped into -180..<180.
    public func setRegion(_ region: CoordinateRegion, animated: Bool) {
        let (center, span) = fitted(region)
        show(center: center, span: span, animated: animated)
    }

    /// Centres the map on `coordinate`, keeping the zoom (`MKMapView.setCenter(_:animated:)`).
    public func setCenter(_ coordinate: LocationCoordinate2D, animated: Bool) {
        show(center: Self.normalized(coordinate), span: span, animated: animated)
    }

    /// The cell showing `coordinate`, or `nil` when it is outside the frame
    /// (`MKMapView.convert(_:toPointTo:)`).
    public func point(for coordinate: LocationCoordinate2D) -> Point? {
        let perDot = degreesPerDot
        guard perDot > 0, coordinate.latitude.isFinite, coordinate.longitude.isFinite else { return nil }
        let east = Self.wrapped(coordinate.longitude - center.longitude)
        let x = Double(dotsAcross) / 2 + east / perDot
        let y = Double(dotsDown) / 2 - (coordinate.latitude - center.latitude) / perDot
        let column = Int((x / 2).rounded(.down))
        let row = Int((y / 4).rounded(.down))
        guard (0..<frame.size.columns).contains(column), (0..<frame.size.rows).contains(row) else { return nil }
        return Point(column: frame.origin.column + column, row: frame.origin.row + row)
    }

    /// The coordinate at the centre of the cell `point` (`MKMapView.convert(_:toCoordinateFrom:)`);
    /// the latitude may lie beyond a pole when the map shows past it.
    public func coordinate(for point: Point) -> LocationCoordinate2D {
        let x = Double((point.column - frame.origin.column) * 2 + 1)
        let y = Double((point.row - frame.origin.row) * 4 + 2)
        return coordinateOfDot(x: x, y: y)
    }

    private var dotsAcross: Int { frame.size.columns * 2 }
    private var dotsDown: Int { frame.size.rows * 4 }
    private var degreesPerDot: LocationDegrees { dotsAcross > 0 ? span / Double(dotsAcross) : 0 }

    /// Degrees across per degree down: the frame's shape in dots (2 for an empty frame, the world's).
    private var aspectRatio: Double {
        dotsAcross > 0 && dotsDown > 0 ? Double(dotsAcross) / Double(dotsDown) : 2
    }

    private func coordinateOfDot(x: Double, y: Double) -> LocationCoordinate2D {
        LocationCoordinate2D(
            latitude: center.latitude + (Double(dotsDown) / 2 - y) * degreesPerDot,
            longitude: Self.wrapped(center.longitude + (x - Double(dotsAcross) / 2) * degreesPerDot))
    }

    private func fitted(_ region: CoordinateRegion) -> (LocationCoordinate2D, LocationDegrees) {
        let across = max(region.span.longitudeDelta, region.span.latitudeDelta * aspectRatio)
        let span = across.isFinite ? across : Self.maximumLongitudeDelta
        return (Self.normalized(region.center), min(Self.maximumLongitudeDelta, max(Self.minimumLongitudeDelta, span)))
    }

    /// Moves to the region and tells the delegate, unless nothing changed (a pan stopped at a pole, a
    /// zoom at its limit): a delegate only hears of real changes.
    private func show(center: LocationCoordinate2D, span: LocationDegrees, animated: Bool) {
        guard center != self.center || span != self.span else { return }
        self.center = center
        self.span = span
        setNeedsDisplay()
        delegate?.mapView(self, regionDidChangeAnimated: animated)
    }

    private static func normalized(_ coordinate: LocationCoordinate2D) -> LocationCoordinate2D {
        let latitude = coordinate.latitude.isFinite ? min(90, max(-90, coordinate.latitude)) : 0
        let longitude = coordinate.longitude.isFinite ? wrapped(coordinate.longitude) : 0
        return LocationCoordinate2D(latitude: latitude, longitude: longitude)
    }

    /// `longitude` in -180..<180.
    private static func wrapped(_ longitude: LocationDegrees) -> LocationDegrees {
        // Left alone when already in range: the arithmetic below would change its last digits.
        if (-180..<180).contains(longitude) { return longitude }
        let east = (longitude + 180).truncatingRemainder(dividingBy: 360)
        return (east < 0 ? east + 360 : east) - 180
    }

    // MARK: - Overlays

    /// Adds `overlay` on top, asking the delegate for its renderer now (the default renderer without a
    /// delegate), as MapKit asks when an overlay appears.
    public func addOverlay(_ overlay: MapOverlay) {
        addOverlays([overlay])
    }

    /// Adds `overlays` on top, in order.
    public func addOverlays(_ overlays: [MapOverlay]) {
        for overlay in overlays where renderers[ObjectIdentifier(overlay)] == nil {
            // Recorded before the delegate is asked, so a delegate that reads `overlays` sees it.
            self.overlays.append(overlay)
            renderers[ObjectIdentifier(overlay)] =
                delegate?.mapView(self, rendererFor: overlay) ?? OverlayRenderer(overlay: overlay)
        }
        setNeedsDisplay()
    }

    /// Removes `overlay` (the same object) if the map has it.
    public func removeOverlay(_ overlay: MapOverlay) {
        removeOverlays([overlay])
    }

    /// Removes `overlays` (the same objects).
    public func removeOverlays(_ overlays: [MapOverlay]) {
        let removed = Set(overlays.map(ObjectIdentifier.init))
        self.overlays.removeAll { removed.contains(ObjectIdentifier($0)) }
        for identifier in removed { renderers[identifier] = nil }
        setNeedsDisplay()
    }

    /// The renderer drawing `overlay`, or `nil` if the map does not have it
    /// (`MKMapView.renderer(for:)`).
    public func renderer(for overlay: MapOverlay) -> OverlayRenderer? {
        renderers[ObjectIdentifier(overlay)]
    }

    // MARK: - Drawing and keys

    /// The Braille dot bits of a cell, indexed by row (0…3) then column (0…1): dots 1-2-3-7 down the
    /// left, 4-5-6-8 down the right (U+2800 + the bits).
    private static let dotBits: [[UInt32]] = [[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]]

    open override func draw(into grid: inout CellGrid) {
        grid.fill(frame)
        let perDot = degreesPerDot
        guard perDot > 0 else { return }
        for row in 0..<frame.size.rows {
            for column in 0..<frame.size.columns {
                var bits: UInt32 = 0
                var inWorld = false
                for dotRow in 0..<4 {
                    for dotColumn in 0..<2 {
                        let dot = coordinateOfDot(
                            x: Double(column * 2 + dotColumn) + 0.5, y: Double(row * 4 + dotRow) + 0.5)
                        // Beyond a pole there is no world: left in the terminal's colours.
                        guard abs(dot.latitude) <= 90 else { continue }
                        inWorld = true
                        if mask.isLand(dot) { bits |= Self.dotBits[dotRow][dotColumn] }
                    }
                }
                guard inWorld else { continue }
                let character = bits == 0 ? " " : String(Character(Unicode.Scalar(0x2800 + bits)!))
                grid[frame.origin.column + column, frame.origin.row + row] = Cell(
                    character, style: CellStyle(foreground: landColor, background: seaColor))
            }
        }
        if isFocused, let middle = point(for: center) {
            grid.draw("+", at: middle, style: CellStyle(attributes: .reverse), clip: frame)
        }
        for overlay in overlays {
            guard let renderer = renderers[ObjectIdentifier(overlay)], let cell = point(for: overlay.coordinate)
            else { continue }
            renderer.draw(at: cell, into: &grid, clip: frame)
        }
    }

    open override var keyHelpTitle: String { "Map" }

    open override var keyHelp: [(key: String, action: String)] {
        super.keyHelp + [("arrows", "pan"), ("+/-, wheel", "zoom in/out")]
    }

    /// The wheel zooms: a notch up (away from the user) zooms in, as in map applications.
    open override func handle(mouse event: MouseEvent) -> Bool {
        guard isEnabled else { return false }
        switch event.action {
        case .scrollUp: zoom(by: 0.5)
        case .scrollDown: zoom(by: 2)
        case .press, .release: return false
        }
        return true
    }

    open override func handle(_ key: Key) -> Bool {
        guard isEnabled else { return false }
        let across = span / 4
        let down = span / aspectRatio / 4
        switch key {
        case .left: pan(latitude: 0, longitude: -across)
        case .right: pan(latitude: 0, longitude: across)
        case .up: pan(latitude: down, longitude: 0)
        case .down: pan(latitude: -down, longitude: 0)
        case .character("+"), .character("="): zoom(by: 0.5)
        case .character("-"), .character("_"): zoom(by: 2)
        default: return false
        }
        return true
    }

    private func pan(latitude: LocationDegrees, longitude: LocationDegrees) {
        let moved = LocationCoordinate2D(
            latitude: center.latitude + latitude, longitude: center.longitude + longitude)
        show(center: Self.normalized(moved), span: span, animated: false)
    }

    private func zoom(by factor: Double) {
        let span = min(Self.maximumLongitudeDelta, max(Self.minimumLongitudeDelta, self.span * factor))
        show(center: center, span: span, animated: false)
    }
}
