print("diary")
