console.log("placeholder");
