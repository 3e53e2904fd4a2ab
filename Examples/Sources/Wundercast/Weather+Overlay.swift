import TerminalUI

extension Weather {
    /// The weather as something on the map (the book's `Weather.Overlay`, an `MKOverlay`): only what
    /// the map needs to draw it.
    public final class Overlay: MapOverlay {
        public let coordinate: LocationCoordinate2D
        public let icon: String
        public let temperature: Int

        init(coordinate: LocationCoordinate2D, icon: String, temperature: Int) {
            self.coordinate = coordinate
            self.icon = icon
            self.temperature = temperature
        }
    }

    /// Draws an ``Overlay`` (the book's `Weather.OverlayView`, an `MKOverlayRenderer` that draws the
    /// icon): the icon and the temperature, bold on the map's colours, so they read over land and sea.
    public final class OverlayView: OverlayRenderer {
        public init(overlay: Overlay, overlayIcon: String) {
            super.init(
                overlay: overlay, text: "\(overlayIcon)\(overlay.temperature)°",
                style: CellStyle(foreground: RGB(hex: 0xFF_FF_FF), attributes: .bold))
        }
    }

    /// The overlay for this weather (the book's `func overlay() -> Overlay`).
    public func overlay() -> Overlay {
        Overlay(coordinate: coordinate, icon: icon, temperature: temperature)
    }
}
