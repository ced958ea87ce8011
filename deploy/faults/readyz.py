# Polls /readyz every 50 ms; prints each change of status with the wall time and how long the
# probe took to answer.
import sys, time, urllib.request, urllib.error
addr, seconds = sys.argv[1], float(sys.argv[2])
t0 = time.time(); last = None; worst = 0.0
def stamp():
    t = time.time()
    return time.strftime("%H:%M:%S", time.localtime(t)) + ".%03d" % int((t % 1) * 1000)
while time.time() - t0 < seconds:
    s = time.time()
    try:
        code = urllib.request.urlopen("http://%s/readyz" % addr, timeout=5).status
    except urllib.error.HTTPError as e:
        code = e.code
    except Exception as e:
        code = "error %s" % e
    took = time.time() - s; worst = max(worst, took)
    if code != last:
        print("%s readyz %s (answered in %d ms)" % (stamp(), code, took * 1000), flush=True)
        last = code
    time.sleep(0.05)
print("slowest readyz answer: %d ms" % (worst * 1000), flush=True)
