' FileGram daemon, started at login from the Startup folder (written by filegram autostart).
' Runs the daemon without a console window.
CreateObject("WScript.Shell").Run {command_vbs}, 0, False
