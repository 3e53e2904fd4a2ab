import BLEExplorer

// A terminal BLE explorer: scan, connect, browse the services and characteristics, read, write,
// watch notifications (the heart rate plotted live), disconnect. Offline by default against a
// simulated BlueZ on a private bus; `RX_BLUEZ=system` uses this machine's BlueZ.
ExplorerApplication.main()
