# os.execv from a threading.Thread: the main thread waits in join.
import os
import threading

threading.Thread(target=lambda: os.execv("/bin/true", ["true", "from-python-thread"])).start()
threading.Event().wait()
