import FallDetect
