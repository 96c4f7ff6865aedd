print("detectord")
