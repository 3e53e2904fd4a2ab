import BlueZSim
import RxBluetoothKit
import RxCocoa
import RxSwift
import RxTest
import TerminalUI
import Testing

@testable import BLEExplorer

/// The whole explorer on a screen of 120 × 40 with no terminal, keys handed to the screen, in
/// virtual time against the simulation: scan, open the heart-rate monitor, watch it, the radio off,
/// back to the scan. Keys reach the view models as Signals, which deliver on the (virtual) scheduler:
/// `settle()` lets them.
struct ExplorerViewControllerTests {
    // The views are the main actor's.
    @MainActor @Test func scanConnectWatchRadioOffAndBack() throws {
        let bluetooth = VirtualBluetooth()
        try SharingScheduler.mock(scheduler: bluetooth.scheduler) {
            let backend = BluetoothBackend(
                manager: bluetooth.manager, radio: RadioSwitch(bluetooth.simulation.setPowered), name: "simulated BlueZ"
            )
            let explorer = ExplorerViewController(
                backend: backend, size: Size(columns: 120, rows: 40), scheduler: bluetooth.scheduler)
            explorer.viewDidLoad()
            let screen = explorer.screen
            // One key at a time, each delivered before the next, as a person types.
            @MainActor func press(_ key: Key) {
                screen.handle(key)
                bluetooth.settle()
            }

            bluetooth.advance(to: 2)
            #expect(screen.text.contains("Bluetooth on · simulated BlueZ"), "\(screen.text)")
            #expect(screen.text.contains("Advertising services · 6"), "\(screen.text)")
            #expect(screen.text.contains("Other devices · 1"), "\(screen.text)")

            // From the top down to the heart-rate monitor, Enter.
            let table = explorer.scan.tableView
            press(.home)
            for _ in 0..<10 {
                let path = try #require(table.highlightedIndexPath)
                if explorer.scan.dataSource[path].name == "HRM Sim" { break }
                press(.down)
            }
            let path = try #require(table.highlightedIndexPath)
            #expect(explorer.scan.dataSource[path].name == "HRM Sim")
            press(.enter)
            #expect(explorer.isShowingDevice)
            #expect(!bluetooth.manager.isScanInProgress, "the scan pauses while a device is open")
            bluetooth.advance(to: 3)
            #expect(screen.text.contains("HRM Sim · C4:7C:8D:6A:10:01 · connected"), "\(screen.text)")
            #expect(screen.text.contains("  ├ Heart Rate Measurement (2A37)"), "\(screen.text)")

            // Down to the measurement (the first six rows are Generic Access and Attribute, then Heart
            // Rate), n, and the plot fills.
            for _ in 0..<6 { press(.down) }
            #expect(explorer.device.treeView.highlightedRow == 6)
            press(.character("n"))
            bluetooth.advance(to: 6.5)
            let rate = Int(StandardDevices.heartRate(3))
            #expect(screen.text.contains("♥ \(rate) bpm"), "\(screen.text)")
            #expect(!explorer.device.plotView.isHidden)

            // p: the radio off, said on the status line; the connection ends.
            press(.character("p"))
            bluetooth.advance(to: 7)
            #expect(explorer.statusLine.displayedText == "⚠ The Bluetooth radio is off.")
            #expect(screen.text.contains("Bluetooth off · simulated BlueZ"), "\(screen.text)")
            #expect(screen.text.contains("disconnected · c connects again"), "\(screen.text)")

            // Esc: back to the scan, which waits for the radio.
            press(.escape)
            #expect(!explorer.isShowingDevice)
            bluetooth.advance(to: 7.5)
            #expect(screen.text.contains("Not scanning: the Bluetooth radio is off."), "\(screen.text)")
            press(.character("p"))
            bluetooth.advance(to: 9)
            #expect(screen.text.contains("Scanning… 7 devices"), "\(screen.text)")
            #expect(explorer.statusLine.displayedText == "The Bluetooth radio is on again.")
        }
    }
}
